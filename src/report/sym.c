/* sym.c — /proc/PID/maps → mapped ELF objects with their load biases, and
 * lookups by address and by name.  Semantics are in sym.h; the symbol
 * rules in symelf.h, the line rules in symline.h.
 *
 * The target is read only inside sym_load(): its maps, /proc/PID/exe, the
 * bytes of its vdso, and a descriptor for each mapped file that has been
 * deleted since (through /proc/PID/map_files, which needs privileges; if
 * that fails the object only gets "name+0xoff").  Everything later comes
 * from the files on disk, so reports can be written after the target is
 * gone. */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/symcfi.h"
#include "report/syminl.h"
#include "report/symline.h"
#include "report/symelf.h"
#include "report/symvec.h"
#include "report/sym.h"

#define DELETED " (deleted)"
#define VDSO "[vdso]"

/* One line of /proc/PID/maps. */
struct mapping {
	uint64_t lo, hi, off;
	int exec;
	char *path; /* NULL for an anonymous mapping */
};

struct maps {
	struct mapping *v;
	size_t n, cap;
};

struct obj {
	char *key;   /* path as in maps, " (deleted)" included */
	char *name;  /* its basename, without " (deleted)" */
	int fd;      /* kept open for a deleted file only, else -1 */
	void *image; /* [vdso]: bytes copied from the target, else NULL */
	size_t size;
	uint64_t lo, off; /* the mapping with the lowest file offset */
	uint64_t bias;    /* runtime address - link-time address */
	uint64_t end;     /* runtime end of the highest PT_LOAD, 0 if unknown */
	int exec;         /* has an executable mapping */
	int syms_done, lines_done, inl_done, cfi_done;
	struct symelf *syms;
	struct symline *lines;
	struct syminl *inl;
	struct symcfi *cfi;
};

/* A runtime address range of one object; sorted, disjoint. */
struct range {
	uint64_t lo, hi;
	size_t obj;
};

/* sym_cfa() answers, by address: asked for at every event. */
struct cfa_entry {
	uint64_t key; /* addr + 1, 0 = empty */
	bool ok;
	struct sym_cfa r;
};

struct symtab {
	struct cfa_entry *cfa; /* open addressing, cap a power of two */
	size_t ncfa, cfacap;
	struct obj *objs; /* the executable first, then map order */
	size_t nobjs, ocap;
	struct range *r;
	size_t nr, rcap;
	int has_exe; /* objs[0] is the executable */
};

/* "lo-hi perms off dev inode   path" → *mp; path may contain spaces. */
static int parse_mapping(char *line, struct mapping *mp)
{
	unsigned long long lo, hi, off;
	char perms[5];
	int n = 0;
	char *path;

	if (sscanf(line, "%llx-%llx %4s %llx %*x:%*x %*u %n", &lo, &hi, perms,
		   &off, &n) < 4 || n == 0)
		return -1;
	path = line + n;
	path[strcspn(path, "\n")] = '\0';
	*mp = (struct mapping){ .lo = lo, .hi = hi, .off = off,
				.exec = perms[2] == 'x' };
	if (*path && !(mp->path = strdup(path)))
		return -1;
	return 0;
}

static void maps_free(struct maps *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].path);
	free(m->v);
}

static int read_maps(pid_t pid, struct maps *m)
{
	char fname[64], *line = NULL;
	size_t len = 0;
	int ret = 0;
	FILE *f;

	snprintf(fname, sizeof fname, "/proc/%d/maps", (int)pid);
	f = fopen(fname, "re");
	if (!f)
		return -1;
	while (ret == 0 && getline(&line, &len, f) > 0) {
		if (symvec_grow((void **)&m->v, &m->cap, m->n + 1,
				sizeof *m->v))
			ret = -1;
		else if (parse_mapping(line, &m->v[m->n]) == 0)
			m->n++;
	}
	free(line);
	fclose(f);
	return ret;
}

/* Is this mapping part of an object we can name? */
static int is_object(const struct mapping *mp)
{
	return mp->path && (mp->path[0] == '/' || strcmp(mp->path, VDSO) == 0);
}

static int is_deleted(const char *key)
{
	size_t n = strlen(key), d = strlen(DELETED);

	return n > d && strcmp(key + n - d, DELETED) == 0;
}

static long find_obj(const struct symtab *st, const char *key)
{
	for (size_t i = 0; i < st->nobjs; i++)
		if (strcmp(st->objs[i].key, key) == 0)
			return (long)i;
	return -1;
}

/* The vdso has no file: copy its bytes while the target is there. */
static void read_image(pid_t pid, const struct mapping *mp, struct obj *o)
{
	char fname[64];
	size_t size = mp->hi - mp->lo;
	int fd;

	snprintf(fname, sizeof fname, "/proc/%d/mem", (int)pid);
	fd = open(fname, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	o->image = malloc(size);
	if (o->image &&
	    pread(fd, o->image, size, (off_t)mp->lo) == (ssize_t)size) {
		o->size = size;
	} else {
		free(o->image);
		o->image = NULL;
	}
	close(fd);
}

/* A deleted file survives as long as it is mapped: keep a descriptor. */
static void open_deleted(pid_t pid, const struct mapping *mp, struct obj *o)
{
	char fname[96];

	snprintf(fname, sizeof fname, "/proc/%d/map_files/%" PRIx64 "-%" PRIx64,
		 (int)pid, mp->lo, mp->hi);
	o->fd = open(fname, O_RDONLY | O_CLOEXEC);
}

static int new_obj(struct symtab *st, const struct mapping *mp, pid_t pid)
{
	const char *slash = strrchr(mp->path, '/');
	const char *base = slash ? slash + 1 : mp->path;
	struct obj *o;

	if (symvec_grow((void **)&st->objs, &st->ocap, st->nobjs + 1,
			sizeof *o))
		return -1;
	o = &st->objs[st->nobjs++];
	*o = (struct obj){ .fd = -1, .lo = mp->lo, .off = mp->off };
	o->key = strdup(mp->path);
	o->name = strndup(base, strlen(base) -
				(is_deleted(base) ? strlen(DELETED) : 0));
	if (!o->key || !o->name)
		return -1;
	if (strcmp(o->key, VDSO) == 0)
		read_image(pid, mp, o);
	else if (is_deleted(o->key))
		open_deleted(pid, mp, o);
	return 0;
}

static void obj_free(struct obj *o)
{
	free(o->key);
	free(o->name);
	free(o->image);
	if (o->fd >= 0)
		close(o->fd);
	symelf_free(o->syms);
	symline_free(o->lines);
	syminl_free(o->inl);
	symcfi_free(o->cfi);
}

/* Group the file-backed mappings by path; keep the objects with code. */
static int add_objects(struct symtab *st, const struct maps *m, pid_t pid)
{
	size_t k = 0;

	for (size_t i = 0; i < m->n; i++) {
		const struct mapping *mp = &m->v[i];
		long j;

		if (!is_object(mp))
			continue;
		j = find_obj(st, mp->path);
		if (j < 0 && new_obj(st, mp, pid))
			return -1;
		if (j < 0)
			j = (long)st->nobjs - 1;
		st->objs[j].exec |= mp->exec;
		if (mp->off < st->objs[j].off) {
			st->objs[j].lo = mp->lo;
			st->objs[j].off = mp->off;
		}
	}
	for (size_t i = 0; i < st->nobjs; i++) {
		if (st->objs[i].exec)
			st->objs[k++] = st->objs[i];
		else
			obj_free(&st->objs[i]);
	}
	st->nobjs = k;
	return 0;
}

/* sym_addr() looks in the executable first, whatever its address. */
static void exe_first(struct symtab *st, pid_t pid)
{
	char fname[64], path[4096];
	ssize_t n;
	long i;

	snprintf(fname, sizeof fname, "/proc/%d/exe", (int)pid);
	n = readlink(fname, path, sizeof path - 1);
	if (n <= 0)
		return;
	path[n] = '\0';
	i = find_obj(st, path);
	st->has_exe = i >= 0;
	if (i > 0) {
		struct obj exe = st->objs[i];

		memmove(&st->objs[1], &st->objs[0], (size_t)i * sizeof exe);
		st->objs[0] = exe;
	}
}

/* The object's bytes for libelf/libdwarf; *opened if the caller must
 * close src->fd. */
static int obj_src(const struct obj *o, struct symelf_src *src, int *opened)
{
	*src = (struct symelf_src){ .fd = o->fd, .image = o->image,
				    .size = o->size };
	*opened = 0;
	if (o->image || o->fd >= 0)
		return 0;
	if (is_deleted(o->key) || strcmp(o->key, VDSO) == 0)
		return -1;
	src->fd = open(o->key, O_RDONLY | O_CLOEXEC);
	*opened = src->fd >= 0;
	return src->fd >= 0 ? 0 : -1;
}

static void src_close(struct symelf_src *src, int opened)
{
	if (opened)
		close(src->fd);
}

/* bias = runtime start of the lowest mapping - page_down(p_vaddr) of the
 * PT_LOAD mapped from that file offset: right for PIE, non-PIE and shared
 * objects alike.  Without a readable file, assume the usual ET_DYN layout
 * (first segment at vaddr == offset): the names are still stable. */
static void place(struct obj *o, uint64_t page)
{
	struct symelf_src src;
	struct symelf_layout lay;
	int opened;

	o->bias = o->lo - o->off;
	if (obj_src(o, &src, &opened))
		return;
	if (symelf_layout(&src, o->off, page, &lay) == 0) {
		o->bias = o->lo - lay.vaddr;
		o->end = o->bias + lay.end;
	}
	src_close(&src, opened);
}

static int add_range(struct symtab *st, uint64_t lo, uint64_t hi, size_t obj)
{
	struct range *last = st->nr ? &st->r[st->nr - 1] : NULL;

	if (last && last->obj == obj && last->hi == lo) {
		last->hi = hi;
		return 0;
	}
	if (symvec_grow((void **)&st->r, &st->rcap, st->nr + 1,
			sizeof *st->r))
		return -1;
	st->r[st->nr++] = (struct range){ lo, hi, obj };
	return 0;
}

/* Every mapping of a kept object, plus the anonymous mapping the kernel
 * adds right after an object for the part of .bss beyond the file. */
static int add_ranges(struct symtab *st, const struct maps *m, uint64_t page)
{
	long prev = -1;

	for (size_t i = 0; i < m->n; i++) {
		const struct mapping *mp = &m->v[i];
		long j = is_object(mp) ? find_obj(st, mp->path) : -1;

		if (j >= 0 && add_range(st, mp->lo, mp->hi, (size_t)j))
			return -1;
		if (j < 0 && !mp->path && prev >= 0 &&
		    m->v[i - 1].hi == mp->lo && mp->lo < st->objs[prev].end) {
			uint64_t end = st->objs[prev].end + page - 1;

			end &= ~(page - 1);
			if (add_range(st, mp->lo, mp->hi < end ? mp->hi : end,
				      (size_t)prev))
				return -1;
		}
		prev = j;
	}
	return 0;
}

struct symtab *sym_load(pid_t pid)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	struct maps m = { NULL, 0, 0 };
	struct symtab *st = calloc(1, sizeof *st);

	if (!st || read_maps(pid, &m) || add_objects(st, &m, pid))
		goto err;
	exe_first(st, pid);
	for (size_t i = 0; i < st->nobjs; i++)
		place(&st->objs[i], page);
	if (add_ranges(st, &m, page))
		goto err;
	maps_free(&m);
	return st;
err:
	maps_free(&m);
	sym_free(st);
	return NULL;
}

void sym_free(struct symtab *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nobjs; i++)
		obj_free(&st->objs[i]);
	free(st->objs);
	free(st->r);
	free(st->cfa);
	free(st);
}

static void load_syms(struct obj *o)
{
	struct symelf_src src;
	int opened;

	if (o->syms_done)
		return;
	o->syms_done = 1;
	if (obj_src(o, &src, &opened) == 0) {
		o->syms = symelf_load(&src);
		src_close(&src, opened);
	}
}

/* The vdso ships no DWARF; everything else may. */
static void load_lines(struct obj *o)
{
	struct symelf_src src;
	int opened;

	if (o->lines_done)
		return;
	o->lines_done = 1;
	if (!o->image && obj_src(o, &src, &opened) == 0) {
		o->lines = symline_load(src.fd);
		src_close(&src, opened);
	}
}

static void load_inl(struct obj *o)
{
	struct symelf_src src;
	int opened;

	if (o->inl_done)
		return;
	o->inl_done = 1;
	if (!o->image && obj_src(o, &src, &opened) == 0) {
		o->inl = syminl_load(src.fd);
		src_close(&src, opened);
	}
}

static void load_cfi(struct obj *o)
{
	struct symelf_src src;
	int opened;

	if (o->cfi_done)
		return;
	o->cfi_done = 1;
	if (!o->image && obj_src(o, &src, &opened) == 0) {
		o->cfi = symcfi_load(src.fd);
		src_close(&src, opened);
	}
}

uint64_t sym_addr(struct symtab *st, const char *name)
{
	uint64_t v;

	for (size_t i = 0; st && i < st->nobjs; i++) {
		load_syms(&st->objs[i]);
		if (symelf_addr(st->objs[i].syms, name, &v) == 0)
			return v + st->objs[i].bias;
	}
	return 0;
}

/* The executable's functions keep(name, arg) accepts, at run time. */
static size_t exe_funcs(struct symtab *st,
			bool (*keep)(const char *name, const void *arg),
			const void *arg, uint64_t *addr, size_t max)
{
	size_t n;

	if (!st || !st->has_exe)
		return 0;
	load_syms(&st->objs[0]);
	n = symelf_funcs(st->objs[0].syms, keep, arg, addr, max);
	for (size_t i = 0; i < n; i++)
		addr[i] += st->objs[0].bias;
	return n;
}

static bool has_prefix(const char *name, const void *prefix)
{
	return strncmp(name, prefix, strlen(prefix)) == 0;
}

size_t sym_exe_prefix(struct symtab *st, const char *prefix,
		      uint64_t *addr, size_t max)
{
	return exe_funcs(st, has_prefix, prefix, addr, max);
}

struct want {
	bool (*fn)(const char *name);
};

static bool wanted(const char *name, const void *w)
{
	return ((const struct want *)w)->fn(name);
}

size_t sym_exe_match(struct symtab *st, bool (*want)(const char *name),
		     uint64_t *addr, size_t max)
{
	const struct want w = { want };

	return exe_funcs(st, wanted, &w, addr, max);
}

size_t sym_exe_ranges(const struct symtab *st, uint64_t (*r)[2], size_t max)
{
	size_t n = 0;

	for (size_t i = 0; st && st->has_exe && i < st->nr && n < max; i++)
		if (st->r[i].obj == 0) {
			r[n][0] = st->r[i].lo;
			r[n++][1] = st->r[i].hi;
		}
	return n;
}

static const struct range *find_range(const struct symtab *st, uint64_t addr)
{
	size_t lo = 0, hi = st ? st->nr : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < st->r[mid].lo)
			hi = mid;
		else if (addr >= st->r[mid].hi)
			lo = mid + 1;
		else
			return &st->r[mid];
	}
	return NULL;
}

int sym_lookup(struct symtab *st, uint64_t addr, struct sym_info *out)
{
	const struct range *r = find_range(st, addr);
	struct obj *o;
	uint64_t v, start;
	bool lib;

	memset(out, 0, sizeof *out);
	if (!r)
		return -1;
	o = &st->objs[r->obj];
	v = addr - o->bias;
	out->object = o->name;
	out->obj_off = v;
	load_syms(o);
	load_lines(o);
	out->func = symelf_find(o->syms, v, &start);
	if (out->func)
		out->func_off = v - start;
	if (symline_find(o->lines, v, &out->file, &out->line, &lib) == 0)
		out->user = st->has_exe && r->obj == 0 && !lib;
	return 0;
}

/* The name of the function holding the code: the symbol's, but the
 * DWARF name of a compiler's clone ("xcreate" for "xcreate.constprop.0",
 * "f(int)" for "f(int) [clone .isra.0]"). */
static const char *outer_name(const char *sym, const char *dwarf)
{
	size_t n = dwarf ? strlen(dwarf) : 0;

	if (!sym)
		return dwarf;
	if (n && strncmp(sym, dwarf, n) == 0 &&
	    (sym[n] == '.' || strncmp(sym + n, " [clone", 7) == 0))
		return dwarf;
	return sym;
}

int sym_frames(struct symtab *st, uint64_t addr, struct sym_frame *out,
	       int max)
{
	struct syminl_call c[SYM_MAX_FRAMES];
	struct sym_info si;
	const struct range *r = find_range(st, addr);
	const char *sub = NULL;
	bool exe = r && st->has_exe && r->obj == 0;
	int n = 0, k = 0;

	if (max <= 0 || sym_lookup(st, addr, &si) < 0)
		return 0;
	if (si.file) {
		load_inl(&st->objs[r->obj]);
		k = syminl_find(st->objs[r->obj].inl, addr - st->objs[r->obj].bias,
				c, SYM_MAX_FRAMES, &sub);
	}
	/* innermost: the code itself, at its line */
	out[n++] = (struct sym_frame){ k ? c[0].func : outer_name(si.func, sub),
				       si.file, si.line, si.user, k > 0 };
	/* each inlined call, at its call site in the function around it */
	for (int i = 0; i < k && n < max; i++)
		out[n++] = (struct sym_frame){
			i + 1 < k ? c[i + 1].func : outer_name(si.func, sub),
			c[i].file, c[i].line,
			exe && c[i].file && !c[i].lib, i + 1 < k };
	return n;
}

static struct cfa_entry *cfa_slot(struct cfa_entry *v, size_t cap,
				   uint64_t addr)
{
	size_t i = (size_t)((addr * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);

	while (v[i].key && v[i].key != addr + 1)
		i = (i + 1) & (cap - 1);
	return &v[i];
}

static int cfa_grow(struct symtab *st)
{
	size_t cap = st->cfacap ? 2 * st->cfacap : 1024;
	struct cfa_entry *v = calloc(cap, sizeof *v);

	if (!v)
		return -1;
	for (size_t i = 0; i < st->cfacap; i++)
		if (st->cfa[i].key)
			*cfa_slot(v, cap, st->cfa[i].key - 1) = st->cfa[i];
	free(st->cfa);
	st->cfa = v;
	st->cfacap = cap;
	return 0;
}

static int cfa_compute(struct symtab *st, uint64_t addr, struct sym_cfa *out);

int sym_cfa(struct symtab *st, uint64_t addr, struct sym_cfa *out)
{
	struct cfa_entry *e;

	if (!st)
		return -1;
	if (2 * (st->ncfa + 1) > st->cfacap && cfa_grow(st) < 0)
		return cfa_compute(st, addr, out);
	e = cfa_slot(st->cfa, st->cfacap, addr);
	if (!e->key) {
		e->key = addr + 1;
		e->ok = cfa_compute(st, addr, &e->r) == 0;
		st->ncfa++;
	}
	*out = e->r;
	return e->ok ? 0 : -1;
}

static int cfa_compute(struct symtab *st, uint64_t addr, struct sym_cfa *out)
{
	const struct range *r = find_range(st, addr);
	struct sym_frame f[SYM_MAX_FRAMES];
	struct symcfi_rule rule;
	struct obj *o;
	int n;

	if (!r)
		return -1;
	o = &st->objs[r->obj];
	load_cfi(o);
	if (symcfi_rule(o->cfi, addr - o->bias, &rule) < 0)
		return -1;
	*out = (struct sym_cfa){ rule.reg, rule.off, rule.rbp_saved,
				 rule.rbp_off, false };
	n = sym_frames(st, addr, f, SYM_MAX_FRAMES);
	for (int i = 0; i < n && !out->user; i++)
		out->user = f[i].user;
	return 0;
}

const char *sym_path(const struct symtab *st, const char *file)
{
	const char *p = NULL;

	for (size_t i = 0; st && file && !p && i < st->nobjs; i++) {
		const struct obj *o = &st->objs[i];
		if (o->lines_done)
			p = symline_path(o->lines, file);
		if (!p && o->inl_done)
			p = syminl_path(o->inl, file);
	}
	return p;
}

int sym_in_exe(const struct symtab *st, uint64_t addr)
{
	const struct range *r = find_range(st, addr);

	return r && st->has_exe && r->obj == 0;
}

/* Characters snprintf actually stored. */
static size_t stored(int n, size_t size)
{
	if (n < 0)
		return 0;
	return (size_t)n < size ? (size_t)n : size - 1;
}

/* "func", "func+0x1a" or "object+0x8e1f0"; size > 0. */
static size_t put_place(const struct sym_info *si, char *buf, size_t size)
{
	int n;

	if (si->func && si->func_off == 0)
		n = snprintf(buf, size, "%s", si->func);
	else if (si->func)
		n = snprintf(buf, size, "%s+0x%" PRIx64, si->func,
			     si->func_off);
	else
		n = snprintf(buf, size, "%s+0x%" PRIx64, si->object,
			     si->obj_off);
	return stored(n, size);
}

const char *sym_describe(struct symtab *st, uint64_t addr, char *buf,
			 size_t size)
{
	struct sym_info si;
	size_t n;

	if (size == 0)
		return buf;
	if (sym_lookup(st, addr, &si)) {
		snprintf(buf, size, "0x%" PRIx64, addr);
		return buf;
	}
	n = put_place(&si, buf, size);
	if (si.file) {
		struct sym_frame f[SYM_MAX_FRAMES];
		int k = sym_frames(st, addr, f, SYM_MAX_FRAMES), u = 0;

		while (u < k && !f[u].user)
			u++;
		if (u == k || !f[u].file) /* no frame of the program's own */
			u = 0, f[0].file = si.file, f[0].line = si.line;
		snprintf(buf + n, size - n, " (%s:%d)", f[u].file, f[u].line);
	}
	return buf;
}

const char *sym_location(struct symtab *st, uint64_t addr, char *buf,
			 size_t size)
{
	struct sym_info si;

	if (size == 0)
		return buf;
	if (sym_lookup(st, addr, &si) == 0 && si.file) {
		snprintf(buf, size, "%s:%d", si.file, si.line);
		return buf;
	}
	return sym_describe(st, addr, buf, size);
}

int sym_check(const struct symtab *st)
{
	for (size_t i = 0; st && i < st->nr; i++) {
		const struct range *r = &st->r[i];

		if (r->lo >= r->hi || r->obj >= st->nobjs ||
		    (i && st->r[i - 1].hi > r->lo))
			return -1;
	}
	for (size_t i = 0; st && i < st->nobjs; i++) {
		if (symelf_check(st->objs[i].syms) ||
		    symline_check(st->objs[i].lines) ||
		    syminl_check(st->objs[i].inl))
			return -1;
	}
	return 0;
}
