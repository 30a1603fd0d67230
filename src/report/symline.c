/* symline.c — DWARF line tables flattened into one sorted array, via
 * libdwarf 20210528 (dwarf_init_b + dwarf_srclines_b).  Semantics are in
 * symline.h.
 *
 * libdwarf errors are not fatal here: a compilation unit whose line
 * program cannot be read contributes no rows, and the table keeps what was
 * read before.  Only running out of memory drops the whole table. */
#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>
#include <stdlib.h>
#include <string.h>

#include "report/srcpath.h"
#include "report/symline.h"
#include "report/symvec.h"

#define NO_FILE UINT32_MAX
/* A DWARF file number above this is taken as corrupt data, not a reason
 * to allocate a huge per-CU cache. */
#define MAX_FILENO (1u << 20)

struct row {
	uint64_t addr;
	uint32_t line;
	uint32_t file; /* index into files, NO_FILE if unknown */
	uint32_t ord;  /* position in the line program: keeps ties stable */
	uint8_t end;   /* end_sequence: first address after a sequence */
};

struct symline {
	struct row *v;
	size_t n, cap;
	struct file {
		char *path; /* as DWARF names it, each once */
		const char *base; /* its basename (inside path) */
		bool lib;   /* library source (srcpath.h) */
	} *files;
	size_t nfiles, fcap;
};

/* DWARF file number → index in files, for one compilation unit.  Asking
 * dwarf_linesrc() once per file number instead of once per row avoids an
 * allocation per row, and sidesteps the DWARF 4 (1-based) vs DWARF 5
 * (0-based) file numbering that dwarf_srcfiles() would expose. */
struct fcache {
	uint32_t *idx;
	size_t n;
	/* DWARF 5 tables: the name of file entry 1.  libdwarf 20210528
	 * starts the file register at 0 instead of 1 (DWARF 5, 6.2.2), so
	 * rows before the first DW_LNS_set_file (GCC's: code from the
	 * first header the CU uses, e.g. inline helpers) come back as file
	 * 0, the CU's primary file. */
	const char *entry1;
};

/* 1 if res is not DW_DLV_OK; frees the error libdwarf allocated.  err is
 * passed by address: it is only set once the call in res has run. */
static int failed(Dwarf_Debug dbg, int res, Dwarf_Error *err)
{
	if (res == DW_DLV_ERROR)
		dwarf_dealloc_error(dbg, *err);
	return res != DW_DLV_OK;
}

/* Index of path in t->files, adding it if new. */
static int intern(struct symline *t, const char *path, uint32_t *idx)
{
	const char *slash;
	char *copy;

	for (size_t i = 0; i < t->nfiles; i++) {
		if (strcmp(t->files[i].path, path) == 0) {
			*idx = (uint32_t)i;
			return 0;
		}
	}
	if (symvec_grow((void **)&t->files, &t->fcap, t->nfiles + 1,
			sizeof *t->files) ||
	    !(copy = strdup(path)))
		return -1;
	slash = strrchr(copy, '/');
	*idx = (uint32_t)t->nfiles;
	t->files[t->nfiles++] = (struct file){
		copy, slash ? slash + 1 : copy, srcpath_lib(copy) };
	return 0;
}

static int file_index(struct symline *t, struct fcache *fc, Dwarf_Debug dbg,
		      Dwarf_Line line, Dwarf_Unsigned fileno, uint32_t *idx)
{
	Dwarf_Error err = NULL;
	char *path = NULL;
	int ret;

	*idx = NO_FILE;
	if (fileno >= MAX_FILENO)
		return 0;
	if (fileno < fc->n && fc->idx[fileno] != NO_FILE) {
		*idx = fc->idx[fileno];
		return 0;
	}
	if (fileno >= fc->n) {
		uint32_t *q = realloc(fc->idx, (fileno + 1) * sizeof *q);

		if (!q)
			return -1;
		for (size_t i = fc->n; i <= fileno; i++)
			q[i] = NO_FILE;
		fc->idx = q;
		fc->n = fileno + 1;
	}
	if (fileno == 0 && fc->entry1) {
		ret = intern(t, fc->entry1, idx);
		fc->idx[fileno] = *idx;
		return ret;
	}
	if (failed(dbg, dwarf_linesrc(line, &path, &err), &err))
		return 0;
	ret = intern(t, path, idx);
	dwarf_dealloc(dbg, path, DW_DLA_STRING);
	fc->idx[fileno] = *idx;
	return ret;
}

/* Address, line and end flag of one row; -1 if libdwarf cannot say. */
static int get_row(Dwarf_Debug dbg, Dwarf_Line line, struct row *r,
		   Dwarf_Unsigned *fileno)
{
	Dwarf_Error err = NULL;
	Dwarf_Addr addr;
	Dwarf_Unsigned lineno;
	Dwarf_Bool end;

	if (failed(dbg, dwarf_lineaddr(line, &addr, &err), &err) ||
	    failed(dbg, dwarf_lineno(line, &lineno, &err), &err) ||
	    failed(dbg, dwarf_lineendsequence(line, &end, &err), &err) ||
	    failed(dbg, dwarf_line_srcfileno(line, fileno, &err), &err))
		return -1;
	*r = (struct row){ .addr = addr,
			   .line = lineno > INT32_MAX ? 0 : (uint32_t)lineno,
			   .file = NO_FILE, .end = end != 0 };
	return 0;
}

/* Where the linker puts sequences of code it threw away. */
static int tombstone(uint64_t addr)
{
	return addr == 0 || addr >= UINT64_MAX - 1;
}

/* Rows [seq, n) are one whole sequence: drop it? */
static int discarded(const struct symline *t, size_t seq)
{
	return tombstone(t->v[seq].addr) ||
	       t->v[seq].addr == t->v[t->n - 1].addr; /* empty */
}

static int add_row(struct symline *t, struct fcache *fc, Dwarf_Debug dbg,
		   Dwarf_Line line)
{
	Dwarf_Unsigned fileno;
	struct row r;

	if (get_row(dbg, line, &r, &fileno))
		return 0;
	if (!r.end && file_index(t, fc, dbg, line, fileno, &r.file))
		return -1;
	if (t->n >= UINT32_MAX ||
	    symvec_grow((void **)&t->v, &t->cap, t->n + 1, sizeof *t->v))
		return -1;
	r.ord = (uint32_t)t->n;
	t->v[t->n++] = r;
	return 0;
}

static int add_rows(struct symline *t, Dwarf_Debug dbg, Dwarf_Line *lines,
		    Dwarf_Signed n, const char *entry1)
{
	struct fcache fc = { NULL, 0, entry1 };
	size_t seq = t->n; /* first row of the current sequence */
	int ret = 0;

	for (Dwarf_Signed i = 0; i < n && ret == 0; i++) {
		ret = add_row(t, &fc, dbg, lines[i]);
		if (ret || t->n == seq || !t->v[t->n - 1].end)
			continue;
		if (discarded(t, seq))
			t->n = seq;
		seq = t->n;
	}
	/* An unterminated last sequence of a malformed program. */
	if (seq < t->n && tombstone(t->v[seq].addr))
		t->n = seq;
	free(fc.idx);
	return ret;
}

static int read_cu(struct symline *t, Dwarf_Debug dbg, Dwarf_Die die)
{
	Dwarf_Error err = NULL;
	Dwarf_Unsigned version;
	Dwarf_Small count;
	Dwarf_Line_Context ctx;
	Dwarf_Line *lines;
	Dwarf_Signed n, nfiles = 0;
	char **files = NULL;
	int ret = 0;

	if (failed(dbg, dwarf_srclines_b(die, &version, &count, &ctx, &err),
		   &err))
		return 0;
	if (version == 5 &&
	    failed(dbg, dwarf_srcfiles(die, &files, &nfiles, &err), &err))
		nfiles = 0;
	if (!failed(dbg,
		    dwarf_srclines_from_linecontext(ctx, &lines, &n, &err),
		    &err))
		ret = add_rows(t, dbg, lines, n, nfiles > 1 ? files[1] : NULL);
	for (Dwarf_Signed i = 0; i < nfiles; i++)
		dwarf_dealloc(dbg, files[i], DW_DLA_STRING);
	if (nfiles > 0)
		dwarf_dealloc(dbg, files, DW_DLA_LIST);
	dwarf_srclines_dealloc_b(ctx);
	return ret;
}

/* Every CU header must be visited until DW_DLV_NO_ENTRY; stopping early
 * is fine here only because dbg is finished right after. */
static int read_cus(struct symline *t, Dwarf_Debug dbg)
{
	for (;;) {
		Dwarf_Error err = NULL;
		Dwarf_Unsigned len, typeoff, next;
		Dwarf_Half ver, asize, lsize, esize, cutype;
		Dwarf_Off abbrev;
		Dwarf_Sig8 sig;
		Dwarf_Die die = NULL;
		int ret = 0;

		if (failed(dbg,
			   dwarf_next_cu_header_d(dbg, 1, &len, &ver, &abbrev,
						  &asize, &lsize, &esize, &sig,
						  &typeoff, &next, &cutype,
						  &err),
			   &err))
			return 0;
		if (failed(dbg, dwarf_siblingof_b(dbg, NULL, 1, &die, &err),
			   &err))
			continue;
		ret = read_cu(t, dbg, die);
		dwarf_dealloc_die(die);
		if (ret)
			return -1;
	}
}

/* Address order; at one address an end_sequence row sorts first, so that
 * a sequence starting where another ends wins; then program order. */
static int row_cmp(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->end != b->end)
		return a->end ? -1 : 1;
	return a->ord < b->ord ? -1 : a->ord > b->ord;
}

struct symline *symline_load(int fd)
{
	Dwarf_Debug dbg = NULL;
	Dwarf_Error err = NULL;
	struct symline *t;

	if (failed(dbg, dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL,
				     NULL, &dbg, &err),
		   &err))
		return NULL;
	t = calloc(1, sizeof *t);
	if (t && (read_cus(t, dbg) || t->n == 0)) {
		symline_free(t);
		t = NULL;
	}
	if (dwarf_finish(dbg, &err) == DW_DLV_ERROR)
		dwarf_dealloc_error(NULL, err);
	if (t)
		qsort(t->v, t->n, sizeof *t->v, row_cmp);
	return t;
}

const char *symline_path(const struct symline *t, const char *base)
{
	for (size_t i = 0; t && i < t->nfiles; i++)
		if (t->files[i].base == base)
			return t->files[i].path;
	return NULL;
}

void symline_free(struct symline *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nfiles; i++)
		free(t->files[i].path);
	free(t->files);
	free(t->v);
	free(t);
}

int symline_find(const struct symline *t, uint64_t vaddr, const char **file,
		 int *line, bool *lib)
{
	size_t lo = 0, hi = t ? t->n : 0;
	const struct row *r;

	while (lo < hi) { /* lo = first row after vaddr */
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	r = &t->v[lo - 1];
	if (r->end || r->line == 0 || r->file == NO_FILE)
		return -1;
	*file = t->files[r->file].base;
	*line = (int)r->line;
	if (lib)
		*lib = t->files[r->file].lib;
	return 0;
}

size_t symline_rows(const struct symline *t)
{
	return t ? t->n : 0;
}

int symline_check(const struct symline *t)
{
	for (size_t i = 0; t && i < t->n; i++) {
		if (t->v[i].file != NO_FILE && t->v[i].file >= t->nfiles)
			return -1;
		if (i && row_cmp(&t->v[i - 1], &t->v[i]) > 0)
			return -1;
	}
	return 0;
}
