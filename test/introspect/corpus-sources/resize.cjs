const yargs = require('yargs/yargs');
const { hideBin } = require('yargs/helpers');
yargs(hideBin(process.argv))
  .scriptName('resize')
  .usage('$0 [options] <files..>', 'Resize images to fit within a bounding box', (y) => y.positional('files', { describe: 'images to resize', type: 'string' }))
  .option('width', { alias: 'w', type: 'number', describe: 'maximum width in pixels', demandOption: true })
  .option('height', { alias: 'H', type: 'number', describe: 'maximum height in pixels' })
  .option('mode', { choices: ['fit', 'fill', 'stretch'], default: 'fit', describe: 'how to fit the box' })
  .option('out-dir', { alias: 'o', type: 'string', describe: 'directory for the results', default: 'resized' })
  .option('keep-exif', { type: 'boolean', describe: 'keep EXIF metadata' })
  .option('tag', { type: 'array', describe: 'tags to add to the output' })
  .wrap(80)
  .parse();
