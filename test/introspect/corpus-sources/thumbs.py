import click

@click.command()
@click.argument('src', type=click.Path(exists=False))
@click.argument('dest', required=False)
@click.option('-s', '--size', default=128, show_default=True, help='Longest side of the thumbnail in pixels.')
@click.option('--format', 'fmt', type=click.Choice(['png', 'jpeg', 'webp']), default='png', show_default=True, help='Image format of the thumbnails.')
@click.option('--recursive/--no-recursive', default=True, show_default=True, help='Descend into subdirectories.')
@click.option('-q', '--quality', type=click.IntRange(1, 100), help='Compression quality.')
@click.option('--exclude', multiple=True, metavar='GLOB', help='Skip files matching GLOB. Can be given several times.')
@click.option('--overwrite', is_flag=True, help='Replace thumbnails that already exist.')
@click.option('--ratio', type=float, help='Crop to this aspect ratio before scaling.')
def main(src, dest, size, fmt, recursive, quality, exclude, overwrite, ratio):
    """Create thumbnails for every image under SRC.

    Thumbnails are written next to the originals unless DEST is given.
    """

if __name__ == '__main__':
    main(prog_name='thumbs')
