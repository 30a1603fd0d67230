/* symelf.c — symbols and PT_LOAD layout of one ELF object, via libelf.
 * Semantics are in symelf.h. */
#include <gelf.h>
#include <libelf.h>
#include <libiberty/demangle.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/symelf.h"
#include "report/symvec.h"

/* How far symelf_find() looks back past the nearest preceding symbol for
 * one that encloses the address (a function with a local symbol inside
 * it); nested symbols are rare, so a short walk is enough. */
#define MAX_BACK 8

struct ent {
	uint64_t addr;
	uint64_t size;
	uint32_t name;  /* offset into names */
	uint8_t type;   /* STT_* */
	uint8_t bind;   /* STB_* */
	uint8_t hidden; /* a non-default symbol version */
	uint8_t dm_done; /* disp computed */
	char *disp;     /* demangled name (malloc'd), NULL: the name itself */
};

struct symelf {
	struct ent *v; /* sorted by addr; aliases: best name last */
	size_t n, cap;
	char *names; /* NUL-terminated names, version suffix cut */
	size_t nlen, ncap;
};

static Elf *open_elf(const struct symelf_src *src)
{
	Elf *e;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	if (src->image)
		e = elf_memory(src->image, src->size);
	else
		e = elf_begin(src->fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) != ELF_K_ELF) {
		elf_end(e);
		e = NULL;
	}
	return e;
}

int symelf_layout(const struct symelf_src *src, uint64_t file_off,
		  uint64_t page, struct symelf_layout *out)
{
	Elf *e = open_elf(src);
	size_t n = 0;
	int found = 0;

	if (!e)
		return -1;
	out->end = 0;
	if (elf_getphdrnum(e, &n) != 0)
		n = 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr p;

		if (!gelf_getphdr(e, (int)i, &p) || p.p_type != PT_LOAD)
			continue;
		if (p.p_vaddr + p.p_memsz > out->end)
			out->end = p.p_vaddr + p.p_memsz;
		/* The kernel maps a segment at page_down(p_vaddr) from file
		 * offset page_down(p_offset) (binfmt_elf, elf_map()). */
		if (!found && (p.p_offset & ~(page - 1)) == file_off) {
			out->vaddr = p.p_vaddr & ~(page - 1);
			found = 1;
		}
	}
	elf_end(e);
	return found ? 0 : -1;
}

static int keep(const GElf_Sym *s)
{
	int type = GELF_ST_TYPE(s->st_info);

	if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT)
		return 0;
	if (s->st_shndx == SHN_UNDEF || s->st_shndx == SHN_ABS)
		return 0;
	return s->st_value != 0;
}

/* Append one symbol; name may carry a "@VER" or "@@VER" suffix. */
static int add(struct symelf *t, const GElf_Sym *s, const char *name,
	       int hidden)
{
	size_t len = strcspn(name, "@");
	struct ent *e;

	if (len == 0 || t->nlen + len + 1 > UINT32_MAX ||
	    symvec_grow((void **)&t->v, &t->cap, t->n + 1, sizeof *t->v) ||
	    symvec_grow((void **)&t->names, &t->ncap, t->nlen + len + 1, 1))
		return -1;
	if (name[len] == '@' && name[len + 1] != '@')
		hidden = 1;
	e = &t->v[t->n++];
	*e = (struct ent){ .addr = s->st_value, .size = s->st_size,
			   .name = (uint32_t)t->nlen,
			   .type = GELF_ST_TYPE(s->st_info),
			   .bind = GELF_ST_BIND(s->st_info),
			   .hidden = (uint8_t)hidden };
	memcpy(t->names + t->nlen, name, len);
	t->names[t->nlen + len] = '\0';
	t->nlen += len + 1;
	return 0;
}

static int is_hidden(Elf_Data *versym, size_t i)
{
	GElf_Versym vs;

	return versym && gelf_getversym(versym, (int)i, &vs) &&
	       (vs & 0x8000); /* VERSYM_HIDDEN */
}

static int read_table(struct symelf *t, Elf *e, Elf_Scn *scn,
		      Elf_Data *versym)
{
	GElf_Shdr sh;
	Elf_Data *d;

	if (!gelf_getshdr(scn, &sh) || sh.sh_entsize == 0)
		return -1;
	d = elf_getdata(scn, NULL);
	if (!d)
		return -1;
	for (size_t i = 1; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(d, (int)i, &s) || !keep(&s))
			continue;
		name = elf_strptr(e, sh.sh_link, s.st_name);
		if (name && add(t, &s, name, is_hidden(versym, i)))
			return -1;
	}
	return 0;
}

static int underscores(const char *s)
{
	return (int)strspn(s, "_");
}

/* Order of aliases at one address: the better name sorts last.  glibc
 * defines most public functions as a WEAK alias of a GLOBAL "__name", so
 * leading underscores count before binding. */
static int alias_cmp(const struct ent *a, const struct ent *b,
		     const char *names)
{
	const char *na = names + a->name, *nb = names + b->name;
	int d;

	if ((d = (a->size != 0) - (b->size != 0)))
		return d;
	if ((d = underscores(nb) - underscores(na)))
		return d;
	if ((d = (a->bind != STB_LOCAL) - (b->bind != STB_LOCAL)))
		return d;
	if ((d = b->hidden - a->hidden))
		return d;
	if (strlen(na) != strlen(nb))
		return strlen(na) > strlen(nb) ? -1 : 1;
	return strcmp(nb, na);
}

static int addr_cmp(const void *pa, const void *pb, void *names)
{
	const struct ent *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return alias_cmp(a, b, names);
}

/* .symtab is a superset of .dynsym when present; .gnu.version only
 * describes .dynsym. */
static int read_symbols(struct symelf *t, Elf *e)
{
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL, *versym = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
		else if (sh.sh_type == SHT_GNU_versym)
			versym = scn;
	}
	if (symtab && read_table(t, e, symtab, NULL) == 0 && t->n)
		return 0;
	t->n = 0;
	t->nlen = 0;
	if (!dynsym)
		return -1;
	return read_table(t, e, dynsym,
			  versym ? elf_getdata(versym, NULL) : NULL);
}

struct symelf *symelf_load(const struct symelf_src *src)
{
	struct symelf *t = calloc(1, sizeof *t);
	Elf *e = open_elf(src);

	if (!t || !e || read_symbols(t, e) || t->n == 0)
		goto err;
	elf_end(e);
	qsort_r(t->v, t->n, sizeof *t->v, addr_cmp, t->names);
	return t;
err:
	if (e)
		elf_end(e);
	symelf_free(t);
	return NULL;
}

void symelf_free(struct symelf *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].disp);
	free(t->v);
	free(t->names);
	free(t);
}

/* Does symbol i enclose vaddr (see the size rules in symelf.h)? */
static int covers(const struct symelf *t, size_t i, uint64_t vaddr)
{
	const struct ent *e = &t->v[i];

	if (vaddr - e->addr < e->size)
		return 1;
	if (e->size)
		return 0;
	if (e->type == STT_OBJECT)
		return vaddr == e->addr;
	while (i < t->n && t->v[i].addr == e->addr)
		i++;
	return i == t->n || vaddr < t->v[i].addr;
}

/* Itanium C++ (_Z) and Rust (legacy _ZN...17h<hash>E, v0 _R) names. */
static bool mangled(const char *name)
{
	return (name[0] == '_' && (name[1] == 'Z' || name[1] == 'R')) ||
	       strncmp(name, "__Z", 3) == 0;
}

/* The name people read: demangled by libiberty (automatic style: C++,
 * Rust legacy and v0), once, on first use. */
static const char *display(struct symelf *t, struct ent *e)
{
	const char *name = t->names + e->name;

	if (!e->dm_done) {
		e->dm_done = 1;
		if (mangled(name))
			e->disp = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
	}
	return e->disp ? e->disp : name;
}

const char *symelf_find(struct symelf *t, uint64_t vaddr, uint64_t *start)
{
	size_t lo = 0, hi;

	if (!t)
		return NULL;
	hi = t->n;
	while (lo < hi) { /* lo = first symbol starting after vaddr */
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = 0; k < MAX_BACK && k < lo; k++) {
		size_t i = lo - 1 - k;

		if (covers(t, i, vaddr)) {
			*start = t->v[i].addr;
			return display(t, &t->v[i]);
		}
	}
	return NULL;
}

/* 0 = global default version, 1 = global hidden version, 2 = local. */
static int def_rank(const struct ent *e)
{
	if (e->bind == STB_LOCAL)
		return 2;
	return e->hidden ? 1 : 0;
}

/* Does the demangled name d say name: equal, or equal up to its
 * parameter list ("demo::Flags::left" for "demo::Flags::left()")? */
static bool says(const char *d, const char *name)
{
	size_t n = strlen(name);

	return strncmp(d, name, n) == 0 && (d[n] == '\0' || d[n] == '(');
}

/* The identifier name ends with ("left" in "demo::Flags::left()"),
 * which a mangled name holds as such: a filter that spares demangling
 * every symbol of libstdc++.  Empty if it ends otherwise (operator+,
 * {{closure}}). */
static void last_ident(const char *name, char *out, size_t n)
{
	size_t end = strcspn(name, "("), b = end;

	while (b > 0 && (name[b - 1] == '_' || (name[b - 1] >= '0' &&
		name[b - 1] <= '9') || ((name[b - 1] | 0x20) >= 'a' &&
					(name[b - 1] | 0x20) <= 'z')))
		b--;
	if (end - b >= n || (end < strlen(name) && name[end] != '('))
		b = end;
	snprintf(out, n, "%.*s", (int)(end - b), name + b);
}

/* name as people write it: the one address whose demangled name says
 * it; -1 if none, -2 if several (ambiguous). */
static int addr_demangled(struct symelf *t, const char *name,
			  uint64_t *vaddr)
{
	char id[256];
	int found = 0;

	last_ident(name, id, sizeof id);
	for (size_t i = 0; i < t->n; i++) {
		struct ent *e = &t->v[i];
		const char *raw = t->names + e->name;

		if (!mangled(raw) || (id[0] && !strstr(raw, id)) ||
		    !says(display(t, e), name))
			continue;
		if (found && *vaddr != e->addr)
			return -2;
		found = 1;
		*vaddr = e->addr;
	}
	return found ? 0 : -1;
}

int symelf_addr(struct symelf *t, const char *name, uint64_t *vaddr)
{
	int best = 3;

	for (size_t i = 0; t && i < t->n && best > 0; i++) {
		int r;

		if (strcmp(t->names + t->v[i].name, name) != 0)
			continue;
		r = def_rank(&t->v[i]);
		if (r < best) {
			best = r;
			*vaddr = t->v[i].addr;
		}
	}
	if (best < 3)
		return 0;
	return t && !mangled(name) ? addr_demangled(t, name, vaddr) : -1;
}

size_t symelf_funcs(const struct symelf *t,
		    bool (*keep)(const char *name, const void *arg),
		    const void *arg, uint64_t *vaddr, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; t && i < t->n && n < max; i++) {
		const struct ent *e = &t->v[i];
		if (e->type != STT_FUNC || !keep(t->names + e->name, arg))
			continue;
		bool dup = false; /* aliases at one address */
		for (size_t j = 0; j < n && !dup; j++)
			dup = vaddr[j] == e->addr;
		if (!dup)
			vaddr[n++] = e->addr;
	}
	return n;
}

int symelf_check(const struct symelf *t)
{
	for (size_t i = 0; t && i < t->n; i++) {
		if (t->v[i].name >= t->nlen)
			return -1;
		if (i && addr_cmp(&t->v[i - 1], &t->v[i], t->names) > 0)
			return -1;
	}
	return 0;
}
