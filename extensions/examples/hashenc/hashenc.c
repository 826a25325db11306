/*
 * hashenc: a toolhost example in C. Hashes and encodes text: SHA-256 digests, base64 and hex, chosen by a
 * subcommand. Arguments are parsed with getopt_long (wasi-libc ships musl's); SHA-256 is implemented below
 * from FIPS 180-4 so the example needs nothing beyond libc. Prints toolhost's JSON envelope on stdout.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char HELP[] =
    "Hash and encode text: SHA-256 digests, base64 and hex\n"
    "\n"
    "Usage: hashenc [OPTIONS] <COMMAND> <TEXT>\n"
    "\n"
    "Commands:\n"
    "  sha256  Print the SHA-256 digest of TEXT as hex\n"
    "  base64  Encode TEXT as base64 (with --decode: decode base64 back to text)\n"
    "  hex     Encode TEXT as hex (with --decode: decode hex back to text)\n"
    "\n"
    "Arguments:\n"
    "  <TEXT>  The text to hash, encode or decode\n"
    "\n"
    "Options:\n"
    "  -d, --decode  Decode TEXT instead of encoding it (base64 and hex only)\n"
    "  -u, --url     Use the URL-safe base64 alphabet (- and _) without padding\n"
    "  -h, --help    Print help\n";

/* ---- SHA-256 (FIPS 180-4) ---- */

typedef struct {
  uint32_t state[8];
  uint64_t length; /* bytes hashed so far */
  uint8_t block[64];
  size_t used; /* bytes waiting in block */
} sha256_context;

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(sha256_context *ctx, const uint8_t *p) {
  uint32_t w[64];
  for (int i = 0; i < 16; i++) w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = ROTR(w[i - 15], 7) ^ ROTR(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = ROTR(w[i - 2], 17) ^ ROTR(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = ctx->state[0], b = ctx->state[1], c = ctx->state[2], d = ctx->state[3];
  uint32_t e = ctx->state[4], f = ctx->state[5], g = ctx->state[6], h = ctx->state[7];
  for (int i = 0; i < 64; i++) {
    uint32_t t1 = h + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
    uint32_t t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
  }
  ctx->state[0] += a; ctx->state[1] += b; ctx->state[2] += c; ctx->state[3] += d;
  ctx->state[4] += e; ctx->state[5] += f; ctx->state[6] += g; ctx->state[7] += h;
}

static void sha256_init(sha256_context *ctx) {
  static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy(ctx->state, initial, sizeof initial);
  ctx->length = 0;
  ctx->used = 0;
}

static void sha256_update(sha256_context *ctx, const uint8_t *data, size_t size) {
  ctx->length += size;
  while (size > 0) {
    size_t take = 64 - ctx->used < size ? 64 - ctx->used : size;
    memcpy(ctx->block + ctx->used, data, take);
    ctx->used += take;
    data += take;
    size -= take;
    if (ctx->used == 64) {
      sha256_block(ctx, ctx->block);
      ctx->used = 0;
    }
  }
}

static void sha256_final(sha256_context *ctx, uint8_t digest[32]) {
  uint64_t bits = ctx->length * 8;
  uint8_t pad = 0x80;
  sha256_update(ctx, &pad, 1);
  pad = 0;
  while (ctx->used != 56) sha256_update(ctx, &pad, 1);
  uint8_t length[8];
  for (int i = 0; i < 8; i++) length[i] = (uint8_t)(bits >> (56 - 8 * i));
  sha256_update(ctx, length, 8);
  for (int i = 0; i < 8; i++) {
    digest[4 * i] = (uint8_t)(ctx->state[i] >> 24);
    digest[4 * i + 1] = (uint8_t)(ctx->state[i] >> 16);
    digest[4 * i + 2] = (uint8_t)(ctx->state[i] >> 8);
    digest[4 * i + 3] = (uint8_t)ctx->state[i];
  }
}

/* ---- output ---- */

/* Prints bytes as a JSON string literal; invalid UTF-8 is not checked here (callers say when bytes are binary). */
static void print_json_string(const uint8_t *text, size_t size) {
  putchar('"');
  for (size_t i = 0; i < size; i++) {
    uint8_t c = text[i];
    switch (c) {
      case '"': fputs("\\\"", stdout); break;
      case '\\': fputs("\\\\", stdout); break;
      case '\n': fputs("\\n", stdout); break;
      case '\r': fputs("\\r", stdout); break;
      case '\t': fputs("\\t", stdout); break;
      default:
        if (c < 0x20) printf("\\u%04x", c);
        else putchar(c);
    }
  }
  putchar('"');
}

/* The failure contract: {"error": "..."} on stdout and a non-zero exit (2: usage, 1: bad input). */
static int fail(int code, const char *format, const char *detail) {
  char message[512];
  snprintf(message, sizeof message, format, detail);
  fputs("{\"error\": ", stdout);
  print_json_string((const uint8_t *)message, strlen(message));
  fputs("}\n", stdout);
  return code;
}

static void print_result(const uint8_t *content, size_t size, const char *command, const char *mode, size_t input_bytes) {
  fputs("{\"content\": ", stdout);
  print_json_string(content, size);
  printf(", \"metadata\": {\"command\": \"%s\", \"mode\": \"%s\", \"input_bytes\": %zu, \"output_bytes\": %zu}}\n", command, mode, input_bytes, size);
}

/* True when bytes are UTF-8 (structurally), so a decoded result can go into a JSON string as text. */
static int is_utf8(const uint8_t *s, size_t n) {
  for (size_t i = 0; i < n;) {
    uint8_t c = s[i];
    size_t extra = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : 4;
    if (extra > 3 || n - i <= extra) return 0;
    for (size_t k = 1; k <= extra; k++)
      if ((s[i + k] & 0xc0) != 0x80) return 0;
    i += extra + 1;
  }
  return 1;
}

/* ---- commands ---- */

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char B64URL[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

static int run_sha256(const char *text, int decode) {
  if (decode) return fail(2, "%s", "sha256 cannot --decode: a digest is one-way; use --decode with base64 or hex");
  sha256_context ctx;
  uint8_t digest[32];
  char hex[65];
  sha256_init(&ctx);
  sha256_update(&ctx, (const uint8_t *)text, strlen(text));
  sha256_final(&ctx, digest);
  for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", digest[i]);
  print_result((const uint8_t *)hex, 64, "sha256", "digest", strlen(text));
  return 0;
}

static int run_base64(const char *text, int decode, int url) {
  size_t n = strlen(text);
  if (!decode) {
    const char *alphabet = url ? B64URL : B64;
    uint8_t *out = malloc(4 * (n / 3 + 1) + 1);
    size_t o = 0;
    if (out == NULL) return fail(1, "%s", "out of memory");
    for (size_t i = 0; i < n; i += 3) {
      uint32_t v = (uint32_t)(uint8_t)text[i] << 16;
      if (i + 1 < n) v |= (uint32_t)(uint8_t)text[i + 1] << 8;
      if (i + 2 < n) v |= (uint8_t)text[i + 2];
      out[o++] = (uint8_t)alphabet[v >> 18 & 63];
      out[o++] = (uint8_t)alphabet[v >> 12 & 63];
      if (i + 1 < n) out[o++] = (uint8_t)alphabet[v >> 6 & 63];
      else if (!url) out[o++] = '=';
      if (i + 2 < n) out[o++] = (uint8_t)alphabet[v & 63];
      else if (!url) out[o++] = '=';
    }
    print_result(out, o, "base64", url ? "encode-url" : "encode", n);
    free(out);
    return 0;
  }
  uint8_t *out = malloc(n + 1);
  size_t o = 0, bits = 0;
  uint32_t buffer = 0;
  if (out == NULL) return fail(1, "%s", "out of memory");
  for (size_t i = 0; i < n; i++) {
    char c = text[i];
    if (c == '=') {
      for (size_t k = i; k < n; k++)
        if (text[k] != '=' && text[k] != '\n' && text[k] != '\r') { free(out); return fail(1, "%s", "invalid base64: characters after the \"=\" padding"); }
      break;
    }
    if (c == '\n' || c == '\r' || c == ' ') continue;
    int v = base64_value(c);
    if (v < 0) {
      char shown[2] = {c, 0};
      free(out);
      return fail(1, "invalid base64: unexpected character \"%s\"; base64 uses A-Z a-z 0-9 + / (or - _) and = padding", shown);
    }
    buffer = buffer << 6 | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (uint8_t)(buffer >> bits);
    }
  }
  if (!is_utf8(out, o)) {
    free(out);
    return fail(1, "%s", "the decoded bytes are not UTF-8 text; hashenc only returns text");
  }
  print_result(out, o, "base64", "decode", n);
  free(out);
  return 0;
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static int run_hex(const char *text, int decode) {
  size_t n = strlen(text);
  if (!decode) {
    char *out = malloc(2 * n + 1);
    if (out == NULL) return fail(1, "%s", "out of memory");
    for (size_t i = 0; i < n; i++) snprintf(out + 2 * i, 3, "%02x", (uint8_t)text[i]);
    print_result((const uint8_t *)out, 2 * n, "hex", "encode", n);
    free(out);
    return 0;
  }
  if (n % 2 != 0) return fail(1, "%s", "invalid hex: an odd number of digits; every byte is two hex digits");
  uint8_t *out = malloc(n / 2 + 1);
  if (out == NULL) return fail(1, "%s", "out of memory");
  for (size_t i = 0; i < n; i += 2) {
    int high = hex_value(text[i]), low = hex_value(text[i + 1]);
    if (high < 0 || low < 0) {
      char shown[3] = {text[i], text[i + 1], 0};
      free(out);
      return fail(1, "invalid hex: \"%s\" is not a hex byte (0-9, a-f)", shown);
    }
    out[i / 2] = (uint8_t)(high << 4 | low);
  }
  if (!is_utf8(out, n / 2)) {
    free(out);
    return fail(1, "%s", "the decoded bytes are not UTF-8 text; hashenc only returns text");
  }
  print_result(out, n / 2, "hex", "decode", n);
  free(out);
  return 0;
}

int main(int argc, char **argv) {
  static const struct option options[] = {
      {"decode", no_argument, NULL, 'd'},
      {"url", no_argument, NULL, 'u'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  int decode = 0, url = 0, option;
  opterr = 0; /* report unknown options ourselves, as JSON */
  while ((option = getopt_long(argc, argv, "duh", options, NULL)) != -1) {
    switch (option) {
      case 'd': decode = 1; break;
      case 'u': url = 1; break;
      case 'h': fputs(HELP, stdout); return 0;
      default: return fail(2, "unknown option %s; run --help for the options", argv[optind - 1]);
    }
  }
  int rest = argc - optind;
  if (rest < 1) return fail(2, "%s", "missing the COMMAND: one of sha256, base64, hex");
  const char *command = argv[optind];
  if (rest < 2) return fail(2, "missing the TEXT argument for %s", command);
  if (rest > 2) return fail(2, "%s", "expected one TEXT argument after the command; quote text that contains spaces");
  const char *text = argv[optind + 1];
  if (url && strcmp(command, "base64") != 0) return fail(2, "%s", "--url applies to base64 only");
  if (strcmp(command, "sha256") == 0) return run_sha256(text, decode);
  if (strcmp(command, "base64") == 0) return run_base64(text, decode, url);
  if (strcmp(command, "hex") == 0) return run_hex(text, decode);
  return fail(2, "unknown command \"%s\"; use sha256, base64 or hex", command);
}
