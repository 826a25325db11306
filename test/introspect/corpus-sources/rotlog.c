#include <argp.h>
#include <stdlib.h>
const char *argp_program_version = "rotlog 1.4";
const char *argp_program_bug_address = "<bugs@example.org>";
static char doc[] = "rotlog -- rotate, compress and prune log files\vFiles are rotated in the order given.";
static char args_doc[] = "LOGFILE...";
static struct argp_option options[] = {
  {"keep",      'k', "COUNT", 0, "Keep COUNT rotated files (default 7)" },
  {"compress",  'z', 0,       0, "Compress rotated files with gzip" },
  {"size",      's', "BYTES", 0, "Rotate only files larger than BYTES" },
  {"dry-run",   'n', 0,       0, "Show what would be done without doing it" },
  {"state-file", 'S', "FILE", 0, "Read and write rotation state in FILE" },
  {"suffix",    500, "SUFFIX", OPTION_ARG_OPTIONAL, "Append SUFFIX to rotated names; date if omitted" },
  {0,0,0,0, "Output control:", 1},
  {"verbose",   'v', 0,       0, "Print each action" },
  {"quiet",     'q', 0,       0, "Print nothing but errors" },
  {"silent",    0,   0,       OPTION_ALIAS },
  { 0 }
};
static error_t parse_opt(int key, char *arg, struct argp_state *state) { return key == ARGP_KEY_ARG || key > 0 ? 0 : ARGP_ERR_UNKNOWN; }
static struct argp argp = { options, parse_opt, args_doc, doc };
int main(int argc, char **argv) { argp_parse(&argp, argc, argv, 0, 0, 0); return 0; }
