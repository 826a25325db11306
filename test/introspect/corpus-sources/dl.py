"""Usage: fetchurl [options] <url> [<output>]

Download a URL to a file, resuming partial downloads.

Options:
  -r --retries=<n>      Number of retries on failure [default: 3].
  -t --timeout=<secs>   Seconds to wait for the server [default: 30].
  -q --quiet            Print nothing.
  --user-agent=<ua>     User-Agent header to send.
  --no-resume           Always start from scratch.
  -h --help             Show this screen.
"""
from docopt import docopt
docopt(__doc__)
