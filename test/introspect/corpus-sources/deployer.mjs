import { Command, Option } from 'commander';
const program = new Command();
program
  .name('deployer')
  .description('Upload a static site to an object storage bucket')
  .version('2.1.0')
  .argument('<source>', 'directory containing the built site')
  .argument('[prefix]', 'key prefix inside the bucket')
  .requiredOption('-b, --bucket <name>', 'target bucket')
  .option('-r, --region <region>', 'bucket region', 'us-east-1')
  .option('-c, --concurrency <n>', 'parallel uploads', '8')
  .option('--dry-run', 'list the files without uploading them')
  .option('--no-cache', 'disable the local upload cache')
  .option('-e, --exclude <patterns...>', 'glob patterns to skip')
  .addOption(new Option('--acl <acl>', 'canned ACL for uploaded objects').choices(['private', 'public-read']).default('private'))
  .option('--max-age [seconds]', 'Cache-Control max-age for uploaded objects');
program.parse();
