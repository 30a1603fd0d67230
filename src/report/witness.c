/* witness.c — violation witnesses, format 2.0 (witness.h). */
#include "report/witness.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "report/sym.h"

/* ---- SHA-256 (FIPS 180-4) ---- */

struct sha256 {
	uint32_t h[8];
	uint8_t buf[64];
	size_t nbuf;
	uint64_t bytes;
};

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha_block(struct sha256 *s, const uint8_t *p)
{
	uint32_t w[64], v[8];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^
			      (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^
			      (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(v, s->h, sizeof v);
	for (int i = 0; i < 64; i++) {
		uint32_t S1 = ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25);
		uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
		uint32_t t1 = v[7] + S1 + ch + K[i] + w[i];
		uint32_t S0 = ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22);
		uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
		memmove(v + 1, v, 7 * sizeof v[0]);
		v[4] += t1;
		v[0] = t1 + S0 + maj;
	}
	for (int i = 0; i < 8; i++)
		s->h[i] += v[i];
}

static void sha_init(struct sha256 *s)
{
	static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372,
					0xa54ff53a, 0x510e527f, 0x9b05688c,
					0x1f83d9ab, 0x5be0cd19 };
	memcpy(s->h, h0, sizeof h0);
	s->nbuf = 0;
	s->bytes = 0;
}

static void sha_add(struct sha256 *s, const uint8_t *p, size_t n)
{
	s->bytes += n;
	while (n) {
		size_t k = 64 - s->nbuf < n ? 64 - s->nbuf : n;
		memcpy(s->buf + s->nbuf, p, k);
		s->nbuf += k;
		p += k;
		n -= k;
		if (s->nbuf == 64) {
			sha_block(s, s->buf);
			s->nbuf = 0;
		}
	}
}

static void sha_hex(struct sha256 *s, char hex[65])
{
	uint64_t bits = s->bytes * 8;
	uint8_t pad = 0x80, len[8];

	sha_add(s, &pad, 1);
	pad = 0;
	while (s->nbuf != 56)
		sha_add(s, &pad, 1);
	for (int i = 0; i < 8; i++)
		len[i] = (uint8_t)(bits >> (56 - 8 * i));
	sha_add(s, len, 8);
	for (int i = 0; i < 8; i++)
		snprintf(hex + 8 * i, 9, "%08x", s->h[i]);
}

int witness_sha256_file(const char *path, char hex[65])
{
	struct sha256 s;
	uint8_t buf[8192];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	sha_init(&s);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sha_add(&s, buf, n);
	n = ferror(f);
	fclose(f);
	if (n)
		return -1;
	sha_hex(&s, hex);
	return 0;
}

/* ---- the YAML ---- */

/* A YAML double-quoted scalar. */
static void yq(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static const char *formula(enum property p, const struct error_rec *e)
{
	if (p == PROP_NO_DATA_RACE || strcmp(e->kind, "data-race") == 0)
		return "G ! data-race";
	return "G ! call(reach_error())";
}

static void metadata(FILE *f, const char *path, enum property p,
		     const struct error_rec *e)
{
	uint8_t u[16] = { 0 };
	char hex[65] = "", when[32];
	time_t now = time(NULL);
	struct tm tm;

	if (getrandom(u, sizeof u, 0) != (ssize_t)sizeof u)
		for (size_t i = 0; i < sizeof u; i++) /* still unique enough */
			u[i] = (uint8_t)(now >> (i % 8) ^ i * 151);
	u[6] = (u[6] & 0x0f) | 0x40; /* version 4 */
	u[8] = (u[8] & 0x3f) | 0x80;
	gmtime_r(&now, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	witness_sha256_file(path, hex);
	fputs("- entry_type: \"violation_sequence\"\n  metadata:\n"
	      "    format_version: \"2.0\"\n    uuid: \"", f);
	for (int i = 0; i < 16; i++)
		fprintf(f, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "",
			u[i]);
	fprintf(f, "\"\n    creation_time: \"%s\"\n    producer:\n"
		   "      name: \"x86smc\"\n      version: \"%s\"\n"
		   "    task:\n      input_files:\n        - ",
		when, X86SMC_VERSION);
	yq(f, path);
	fputs("\n      input_file_hashes:\n        ", f);
	yq(f, path);
	fprintf(f, ": \"%s\"\n      specification: ", hex);
	yq(f, formula(p, e));
	fputs("\n      data_model: \"LP64\"\n      language: \"C\"\n"
	      "  content:\n", f);
}

static void waypoint(FILE *f, const char *type, const char *path, int line,
		     const char *func, const char *value)
{
	fprintf(f, "    - segment:\n        - waypoint:\n"
		   "            type: \"%s\"\n            action: \"follow\"\n",
		type);
	if (value) {
		fputs("            constraint:\n              value: ", f);
		yq(f, value);
		fputs("\n              format: \"c_expression\"\n", f);
	}
	fputs("            location:\n              file_name: ", f);
	yq(f, path);
	fprintf(f, "\n              line: %d\n", line);
	if (func) {
		fputs("              function: ", f);
		yq(f, func);
		fputc('\n', f);
	}
}

char *witness_note(const struct trace_env *env, const struct trace_in *in,
		   const struct error_rec *e, enum property p)
{
	struct trace_src src;
	char *text = NULL, val[64];
	size_t len = 0;
	FILE *f;

	if (!env->sym || !trace_error_source(env, e, &src) || !src.path)
		return NULL;
	if (!(f = open_memstream(&text, &len)))
		return NULL;
	metadata(f, src.path, p, e);
	for (size_t k = 0; k < in->n; k++) {
		const struct tr_event *ev = &in->ev[k];
		struct sym_info si = { 0 };
		const char *path;
		if (ev->kind != EV_NONDET || !ev->caller ||
		    sym_lookup(env->sym, ev->caller - 1, &si) < 0 || !si.file ||
		    !si.line || !(path = sym_path(env->sym, si.file)))
			continue;
		snprintf(val, sizeof val, "\\result == %lld",
			 (long long)ev->value);
		waypoint(f, "function_return", path, si.line, si.func, val);
	}
	waypoint(f, "target", src.path, src.line, src.func, NULL);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}
