/* syminl.c — inlined calls from DWARF .debug_info, via libdwarf 20210528.
 * Semantics are in syminl.h.
 *
 * Per compilation unit, once read: the nodes (subprograms with code and
 * the inlined subroutines inside them, each with its parent), and every
 * address range of every node, sorted by start (then longest first, then
 * outermost first).  Each range links to the nearest earlier range that
 * encloses it, so the deepest range holding an address is found by a
 * binary search for the last range starting at or below it and a walk up
 * those links (DWARF ranges nest: an inlined call's code lies inside its
 * caller's).
 *
 * libdwarf errors are not fatal: a unit that cannot be read has no
 * inline information, and the lines and symbols still work. */
#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>
#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/srcpath.h"
#include "report/syminl.h"
#include "report/symvec.h"

#define NONE UINT32_MAX
#define MAX_DEPTH 64 /* of the DIE tree walked, and of name references */

struct node {           /* a subprogram, or an inlined call inside one */
	uint32_t parent;    /* NONE for a subprogram */
	uint32_t depth;
	const char *func;   /* interned, may be NULL */
	uint32_t file;      /* call site: index into files, NONE */
	uint32_t line;
};

struct range {
	uint64_t lo, hi;
	uint32_t node;
	uint32_t up;        /* nearest earlier range enclosing it, NONE */
};

struct unit {
	Dwarf_Off off;      /* of the unit's DIE */
	uint64_t base;      /* DW_AT_low_pc: base of DWARF 4 range lists */
	int state;          /* 0 not read yet, 1 read, -1 unreadable */
	bool spanned;       /* its ranges are spans (else read at load) */
	struct node *n;
	size_t nn, ncap;
	struct range *r;
	size_t nr, rcap;
};

struct span {           /* one address range of one unit */
	uint64_t lo, hi;
	uint32_t unit;
};

struct file {
	char *path;
	const char *base;
	bool lib;
};

/* DIE offset → its name, so that the many inlined copies of one
 * function are named (and demangled) once. */
struct omap {
	Dwarf_Off *k; /* offset + 1, 0 = empty */
	const char **v;
	size_t cap, n;
};

struct syminl {
	int fd;
	Dwarf_Debug dbg;
	struct unit *u;
	size_t nu, ucap;
	struct span *s;
	size_t ns, scap;
	struct file *files;
	size_t nfiles, fcap;
	char **strs;        /* every name, owned */
	size_t nstrs, strcap;
	struct omap names;
};

/* The state of reading one unit. */
struct rd {
	struct syminl *t;
	struct unit *u;
	Dwarf_Half version;
	char **srcfiles;
	Dwarf_Signed nsrc;
	int fail;           /* out of memory */
};

static int failed(Dwarf_Debug dbg, int res, Dwarf_Error *err)
{
	if (res == DW_DLV_ERROR)
		dwarf_dealloc_error(dbg, *err);
	return res != DW_DLV_OK;
}

/* ---- names and files ---- */

static const char *keep_str(struct syminl *t, char *s)
{
	if (!s || symvec_grow((void **)&t->strs, &t->strcap, t->nstrs + 1,
			      sizeof *t->strs)) {
		free(s);
		return NULL;
	}
	t->strs[t->nstrs++] = s;
	return s;
}

static size_t oslot(const struct omap *m, Dwarf_Off off)
{
	size_t i = (size_t)((off * 0x9e3779b97f4a7c15ull) >> 17) & (m->cap - 1);

	while (m->k[i] && m->k[i] != off + 1)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int omap_get(const struct omap *m, Dwarf_Off off, const char **v)
{
	size_t i;

	if (!m->cap)
		return -1;
	i = oslot(m, off);
	if (!m->k[i])
		return -1;
	*v = m->v[i];
	return 0;
}

static void omap_put(struct omap *m, Dwarf_Off off, const char *v)
{
	if (2 * (m->n + 1) > m->cap) {
		struct omap g = { NULL, NULL, m->cap ? 2 * m->cap : 256, 0 };

		g.k = calloc(g.cap, sizeof *g.k);
		g.v = calloc(g.cap, sizeof *g.v);
		if (!g.k || !g.v) {
			free(g.k);
			free(g.v);
			return; /* only a cache */
		}
		for (size_t i = 0; i < m->cap; i++)
			if (m->k[i])
				omap_put(&g, m->k[i] - 1, m->v[i]);
		free(m->k);
		free(m->v);
		*m = g;
	}
	size_t i = oslot(m, off);
	if (!m->k[i])
		m->n++;
	m->k[i] = off + 1;
	m->v[i] = v;
}

static int attr_string(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at,
		       char **out)
{
	Dwarf_Error err = NULL;
	Dwarf_Attribute a;
	int ok;

	if (failed(dbg, dwarf_attr(die, at, &a, &err), &err))
		return -1;
	ok = !failed(dbg, dwarf_formstring(a, out, &err), &err);
	dwarf_dealloc_attribute(a);
	return ok ? 0 : -1;
}

static int attr_ref(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at,
		    Dwarf_Off *off)
{
	Dwarf_Error err = NULL;
	Dwarf_Attribute a;
	int ok;

	if (failed(dbg, dwarf_attr(die, at, &a, &err), &err))
		return -1;
	ok = !failed(dbg, dwarf_global_formref(a, off, &err), &err);
	dwarf_dealloc_attribute(a);
	return ok ? 0 : -1;
}

static int attr_udata(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at,
		      Dwarf_Unsigned *v)
{
	Dwarf_Error err = NULL;
	Dwarf_Attribute a;
	int ok;

	Dwarf_Signed sv;

	if (failed(dbg, dwarf_attr(die, at, &a, &err), &err))
		return -1;
	ok = !failed(dbg, dwarf_formudata(a, v, &err), &err);
	/* DW_FORM_implicit_const (GCC's DWARF 5 DW_AT_call_file) is only
	 * read by dwarf_formsdata in libdwarf 20210528 */
	if (!ok && !failed(dbg, dwarf_formsdata(a, &sv, &err), &err) &&
	    sv >= 0) {
		*v = (Dwarf_Unsigned)sv;
		ok = 1;
	}
	dwarf_dealloc_attribute(a);
	return ok ? 0 : -1;
}

static const char *die_name(struct syminl *t, Dwarf_Die die, int depth);

static const char *ref_name(struct syminl *t, Dwarf_Die die, Dwarf_Half at,
			    int depth)
{
	Dwarf_Error err = NULL;
	Dwarf_Off off;
	Dwarf_Die o;
	const char *name;

	if (attr_ref(t->dbg, die, at, &off) ||
	    failed(t->dbg, dwarf_offdie_b(t->dbg, off, 1, &o, &err), &err))
		return NULL;
	name = die_name(t, o, depth + 1);
	dwarf_dealloc_die(o);
	return name;
}

/* The linkage name demangled, else the name found through the abstract
 * origin or the specification, else DW_AT_name. */
static const char *die_name(struct syminl *t, Dwarf_Die die, int depth)
{
	Dwarf_Error err = NULL;
	Dwarf_Off off;
	const char *name = NULL;
	char *s;

	if (depth > MAX_DEPTH ||
	    failed(t->dbg, dwarf_dieoffset(die, &off, &err), &err))
		return NULL;
	if (omap_get(&t->names, off, &name) == 0)
		return name;
	if (attr_string(t->dbg, die, DW_AT_linkage_name, &s) == 0 ||
	    attr_string(t->dbg, die, DW_AT_MIPS_linkage_name, &s) == 0) {
		char *d = cplus_demangle(s, DMGL_PARAMS | DMGL_ANSI);
		name = keep_str(t, d ? d : strdup(s));
	}
	if (!name)
		name = ref_name(t, die, DW_AT_abstract_origin, depth);
	if (!name)
		name = ref_name(t, die, DW_AT_specification, depth);
	if (!name && attr_string(t->dbg, die, DW_AT_name, &s) == 0)
		name = keep_str(t, strdup(s));
	omap_put(&t->names, off, name);
	return name;
}

static uint32_t intern_file(struct syminl *t, const char *path)
{
	const char *slash;
	char *copy;

	for (size_t i = 0; i < t->nfiles; i++)
		if (strcmp(t->files[i].path, path) == 0)
			return (uint32_t)i;
	if (symvec_grow((void **)&t->files, &t->fcap, t->nfiles + 1,
			sizeof *t->files) ||
	    !(copy = strdup(path)))
		return NONE;
	slash = strrchr(copy, '/');
	t->files[t->nfiles] = (struct file){ copy, slash ? slash + 1 : copy,
					     srcpath_lib(copy) };
	return (uint32_t)t->nfiles++;
}

/* DW_AT_call_file numbers the unit's line table files: from 1 in DWARF
 * 4 (0 = none), from 0 in DWARF 5. */
static uint32_t call_file(struct rd *rd, Dwarf_Die die)
{
	Dwarf_Unsigned f;

	if (attr_udata(rd->t->dbg, die, DW_AT_call_file, &f))
		return NONE;
	if (rd->version < 5) {
		if (f == 0)
			return NONE;
		f--;
	}
	if (f >= (Dwarf_Unsigned)rd->nsrc)
		return NONE;
	return intern_file(rd->t, rd->srcfiles[f]);
}

/* ---- address ranges ---- */

static int add_range(struct rd *rd, uint64_t lo, uint64_t hi, uint32_t node)
{
	struct unit *u = rd->u;

	if (lo >= hi || lo == 0) /* empty, or code the linker dropped */
		return 0;
	if (symvec_grow((void **)&u->r, &u->rcap, u->nr + 1, sizeof *u->r)) {
		rd->fail = 1;
		return -1;
	}
	u->r[u->nr++] = (struct range){ lo, hi, node, NONE };
	return 0;
}

static void ranges_v5(struct rd *rd, Dwarf_Attribute a, Dwarf_Half form,
		      Dwarf_Unsigned val, uint32_t node)
{
	Dwarf_Debug dbg = rd->t->dbg;
	Dwarf_Error err = NULL;
	Dwarf_Rnglists_Head head;
	Dwarf_Unsigned n, global;

	if (failed(dbg, dwarf_rnglists_get_rle_head(a, form, val, &head, &n,
						    &global, &err), &err))
		return;
	for (Dwarf_Unsigned i = 0; i < n; i++) {
		unsigned len, code;
		Dwarf_Unsigned r1, r2, c1, c2;
		Dwarf_Bool unavail = 0;

		if (failed(dbg, dwarf_get_rnglists_entry_fields_a(
					head, i, &len, &code, &r1, &r2,
					&unavail, &c1, &c2, &err), &err))
			break;
		if (code == DW_RLE_end_of_list)
			break;
		if (code == DW_RLE_base_address || code == DW_RLE_base_addressx ||
		    unavail)
			continue;
		if (add_range(rd, c1, c2, node))
			break;
	}
	dwarf_dealloc_rnglists_head(head);
}

static void ranges_v4(struct rd *rd, Dwarf_Die die, Dwarf_Unsigned off,
		      uint64_t base, uint32_t node)
{
	Dwarf_Debug dbg = rd->t->dbg;
	Dwarf_Error err = NULL;
	Dwarf_Off real;
	Dwarf_Ranges *r;
	Dwarf_Signed n;
	Dwarf_Unsigned bytes;

	if (failed(dbg, dwarf_get_ranges_b(dbg, off, die, &real, &r, &n, &bytes,
					   &err), &err))
		return;
	for (Dwarf_Signed i = 0; i < n; i++) {
		if (r[i].dwr_type == DW_RANGES_END)
			break;
		if (r[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
			base = r[i].dwr_addr2;
		else if (add_range(rd, base + r[i].dwr_addr1,
				   base + r[i].dwr_addr2, node))
			break;
	}
	dwarf_ranges_dealloc(dbg, r, n);
}

/* The DIE's code ranges (DW_AT_low_pc/high_pc, or DW_AT_ranges) into the
 * unit as ranges of node.  Returns 1 if it has any, else 0. */
static int die_ranges(struct rd *rd, Dwarf_Die die, uint32_t node)
{
	Dwarf_Debug dbg = rd->t->dbg;
	Dwarf_Error err = NULL;
	Dwarf_Addr lo, hi;
	Dwarf_Half form;
	enum Dwarf_Form_Class cls;
	Dwarf_Attribute a;
	Dwarf_Unsigned val;
	size_t before = rd->u->nr;

	/* a unit has DW_AT_low_pc 0 (the base) along with DW_AT_ranges */
	if (!failed(dbg, dwarf_lowpc(die, &lo, &err), &err) &&
	    !failed(dbg, dwarf_highpc_b(die, &hi, &form, &cls, &err), &err)) {
		if (cls == DW_FORM_CLASS_CONSTANT)
			hi += lo;
		add_range(rd, lo, hi, node);
		return rd->u->nr > before;
	}
	if (failed(dbg, dwarf_attr(die, DW_AT_ranges, &a, &err), &err))
		return 0;
	if (!failed(dbg, dwarf_whatform(a, &form, &err), &err) &&
	    (!failed(dbg, dwarf_formudata(a, &val, &err), &err) ||
	     !failed(dbg, dwarf_global_formref(a, &val, &err), &err))) {
		if (rd->version >= 5)
			ranges_v5(rd, a, form, val, node);
		else
			ranges_v4(rd, die, val, rd->u->base, node);
	}
	dwarf_dealloc_attribute(a);
	return rd->u->nr > before;
}

/* ---- the tree of one unit ---- */

static uint32_t add_node(struct rd *rd, uint32_t parent, const char *func,
			 uint32_t file, uint32_t line)
{
	struct unit *u = rd->u;

	if (u->nn >= NONE - 1 ||
	    symvec_grow((void **)&u->n, &u->ncap, u->nn + 1, sizeof *u->n)) {
		rd->fail = 1;
		return NONE;
	}
	u->n[u->nn] = (struct node){
		parent, parent == NONE ? 0 : u->n[parent].depth + 1, func,
		file, line };
	return (uint32_t)u->nn++;
}

static void walk(struct rd *rd, Dwarf_Die die, uint32_t cur, int depth);

/* A subprogram with code, or an inlined call: a node, its ranges, and
 * its children (nested inlined calls).  The node is dropped again when
 * the DIE has no code (an abstract instance, a declaration). */
static void visit_code(struct rd *rd, Dwarf_Die die, Dwarf_Half tag,
		       uint32_t cur, int depth)
{
	Dwarf_Unsigned line = 0;
	uint32_t file = NONE, parent = tag == DW_TAG_subprogram ? NONE : cur;
	uint32_t n;

	if (tag == DW_TAG_inlined_subroutine) {
		if (cur == NONE)
			return; /* not inside a subprogram: malformed */
		file = call_file(rd, die);
		if (attr_udata(rd->t->dbg, die, DW_AT_call_line, &line) ||
		    line > UINT32_MAX)
			line = 0;
	}
	n = add_node(rd, parent, NULL, file, (uint32_t)line);
	if (n == NONE)
		return;
	if (!die_ranges(rd, die, n)) {
		rd->u->nn--;
		return;
	}
	rd->u->n[n].func = die_name(rd->t, die, 0);
	walk(rd, die, n, depth + 1);
}

static void walk(struct rd *rd, Dwarf_Die die, uint32_t cur, int depth)
{
	Dwarf_Debug dbg = rd->t->dbg;
	Dwarf_Error err = NULL;
	Dwarf_Die c, next;
	Dwarf_Half tag;
	int res;

	if (depth > MAX_DEPTH || rd->fail)
		return;
	res = dwarf_child(die, &c, &err);
	if (failed(dbg, res, &err))
		return;
	for (;;) {
		if (!failed(dbg, dwarf_tag(c, &tag, &err), &err)) {
			switch (tag) {
			case DW_TAG_subprogram:
			case DW_TAG_inlined_subroutine:
				visit_code(rd, c, tag, cur, depth);
				break;
			case DW_TAG_lexical_block:
			case DW_TAG_namespace:
			case DW_TAG_module:
			case DW_TAG_structure_type:
			case DW_TAG_class_type:
			case DW_TAG_union_type:
				walk(rd, c, cur, depth + 1);
				break;
			default:
				break;
			}
		}
		res = dwarf_siblingof_b(dbg, c, 1, &next, &err);
		dwarf_dealloc_die(c);
		if (failed(dbg, res, &err))
			return;
		c = next;
	}
}

/* Start, then longest, then outermost first. */
static int range_cmp(const void *pa, const void *pb, void *pu)
{
	const struct range *a = pa, *b = pb;
	const struct unit *u = pu;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->hi != b->hi)
		return a->hi > b->hi ? -1 : 1;
	return (u->n[a->node].depth > u->n[b->node].depth) -
	       (u->n[a->node].depth < u->n[b->node].depth);
}

/* up links: the nearest earlier range that encloses each (a stack of
 * the ranges open at the current start). */
static void link_up(struct unit *u)
{
	uint32_t *stack = malloc((u->nr ? u->nr : 1) * sizeof *stack);
	size_t top = 0;

	if (!stack)
		return; /* no links: only the last range at an address */
	for (size_t i = 0; i < u->nr; i++) {
		struct range *r = &u->r[i];

		while (top && !(u->r[stack[top - 1]].lo <= r->lo &&
				r->hi <= u->r[stack[top - 1]].hi))
			top--;
		r->up = top ? stack[top - 1] : NONE;
		stack[top++] = (uint32_t)i;
	}
	free(stack);
}

static void read_unit(struct syminl *t, struct unit *u)
{
	Dwarf_Error err = NULL;
	Dwarf_Die cu;
	Dwarf_Half osize;
	struct rd rd = { t, u, 4, NULL, 0, 0 };

	u->state = -1;
	if (failed(t->dbg, dwarf_offdie_b(t->dbg, u->off, 1, &cu, &err), &err))
		return;
	if (failed(t->dbg, dwarf_get_version_of_die(cu, &rd.version, &osize),
		   &err))
		rd.version = 4;
	if (failed(t->dbg, dwarf_srcfiles(cu, &rd.srcfiles, &rd.nsrc, &err),
		   &err))
		rd.nsrc = 0;
	walk(&rd, cu, NONE, 0);
	for (Dwarf_Signed i = 0; i < rd.nsrc; i++)
		dwarf_dealloc(t->dbg, rd.srcfiles[i], DW_DLA_STRING);
	if (rd.nsrc > 0)
		dwarf_dealloc(t->dbg, rd.srcfiles, DW_DLA_LIST);
	dwarf_dealloc_die(cu);
	if (rd.fail) {
		u->nr = u->nn = 0;
		return;
	}
	if (u->nr) /* (a unit of data only has no ranges) */
		qsort_r(u->r, u->nr, sizeof *u->r, range_cmp, u);
	link_up(u);
	u->state = 1;
}

/* ---- the index of units ---- */

static int add_span(struct syminl *t, uint64_t lo, uint64_t hi, uint32_t unit)
{
	if (lo >= hi)
		return 0;
	if (symvec_grow((void **)&t->s, &t->scap, t->ns + 1, sizeof *t->s))
		return -1;
	t->s[t->ns++] = (struct span){ lo, hi, unit };
	return 0;
}

/* The unit's own ranges become spans (a unit without any is read now:
 * nothing says where its code is). */
static int index_unit(struct syminl *t, Dwarf_Die cu)
{
	Dwarf_Error err = NULL;
	Dwarf_Off off;
	Dwarf_Addr lo;
	Dwarf_Half osize;
	struct unit *u;
	struct rd rd = { t, NULL, 4, NULL, 0, 0 };
	uint32_t idx = (uint32_t)t->nu;

	if (failed(t->dbg, dwarf_dieoffset(cu, &off, &err), &err) ||
	    symvec_grow((void **)&t->u, &t->ucap, t->nu + 1, sizeof *t->u))
		return -1;
	u = &t->u[t->nu++];
	*u = (struct unit){ .off = off };
	if (!failed(t->dbg, dwarf_lowpc(cu, &lo, &err), &err))
		u->base = lo;
	if (failed(t->dbg, dwarf_get_version_of_die(cu, &rd.version, &osize),
		   &err))
		rd.version = 4;
	rd.u = u;
	/* the unit's ranges, as ranges of a node that is not there */
	if (!die_ranges(&rd, cu, NONE)) {
		read_unit(t, u);
		return 0;
	}
	u->spanned = true;
	for (size_t i = 0; i < u->nr; i++)
		if (add_span(t, u->r[i].lo, u->r[i].hi, idx))
			return -1;
	u->nr = 0;
	return 0;
}

static int index_units(struct syminl *t)
{
	for (;;) {
		Dwarf_Error err = NULL;
		Dwarf_Unsigned len, typeoff, next;
		Dwarf_Half ver, asize, lsize, esize, cutype;
		Dwarf_Off abbrev;
		Dwarf_Sig8 sig;
		Dwarf_Die die = NULL;
		int r;

		if (failed(t->dbg, dwarf_next_cu_header_d(t->dbg, 1, &len, &ver,
							   &abbrev, &asize,
							   &lsize, &esize, &sig,
							   &typeoff, &next,
							   &cutype, &err),
			   &err))
			return 0;
		if (failed(t->dbg, dwarf_siblingof_b(t->dbg, NULL, 1, &die, &err),
			   &err))
			continue;
		r = index_unit(t, die);
		dwarf_dealloc_die(die);
		if (r)
			return -1;
	}
}

static int span_cmp(const void *pa, const void *pb)
{
	const struct span *a = pa, *b = pb;

	return (a->lo > b->lo) - (a->lo < b->lo);
}

struct syminl *syminl_load(int fd)
{
	Dwarf_Error err = NULL;
	struct syminl *t = calloc(1, sizeof *t);

	if (!t)
		return NULL;
	t->fd = dup(fd);
	if (t->fd < 0 ||
	    failed(NULL, dwarf_init_b(t->fd, DW_DLC_READ, DW_GROUPNUMBER_ANY,
				      NULL, NULL, &t->dbg, &err), &err)) {
		t->dbg = NULL;
		syminl_free(t);
		return NULL;
	}
	if (index_units(t) || t->nu == 0) {
		syminl_free(t);
		return NULL;
	}
	if (t->ns)
		qsort(t->s, t->ns, sizeof *t->s, span_cmp);
	return t;
}

void syminl_free(struct syminl *t)
{
	Dwarf_Error err = NULL;

	if (!t)
		return;
	if (t->dbg && dwarf_finish(t->dbg, &err) == DW_DLV_ERROR)
		dwarf_dealloc_error(NULL, err);
	if (t->fd >= 0)
		close(t->fd);
	for (size_t i = 0; i < t->nu; i++) {
		free(t->u[i].n);
		free(t->u[i].r);
	}
	for (size_t i = 0; i < t->nfiles; i++)
		free(t->files[i].path);
	for (size_t i = 0; i < t->nstrs; i++)
		free(t->strs[i]);
	free(t->u);
	free(t->s);
	free(t->files);
	free(t->strs);
	free(t->names.k);
	free(t->names.v);
	free(t);
}

/* The deepest range of unit u holding vaddr, or NONE. */
static uint32_t deepest(const struct unit *u, uint64_t vaddr)
{
	size_t lo = 0, hi = u->nr;
	uint32_t i;

	while (lo < hi) { /* lo = first range starting after vaddr */
		size_t mid = lo + (hi - lo) / 2;

		if (u->r[mid].lo <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NONE;
	for (i = (uint32_t)(lo - 1); i != NONE; i = u->r[i].up)
		if (vaddr < u->r[i].hi)
			return i;
	return NONE;
}

static int chain(const struct syminl *t, const struct unit *u, uint32_t r,
		 struct syminl_call *out, int max, const char **sub)
{
	uint32_t k = u->r[r].node;
	int n = 0;

	while (k != NONE && u->n[k].parent != NONE) {
		const struct node *nd = &u->n[k];

		if (n < max) {
			const struct file *f =
				nd->file == NONE ? NULL : &t->files[nd->file];
			out[n++] = (struct syminl_call){
				nd->func, f ? f->base : NULL,
				(int)nd->line, f ? f->lib : false };
		}
		k = nd->parent;
	}
	if (k != NONE)
		*sub = u->n[k].func;
	return n;
}

int syminl_find(struct syminl *t, uint64_t vaddr, struct syminl_call *out,
		int max, const char **sub)
{
	size_t lo = 0, hi = t ? t->ns : 0;

	*sub = NULL;
	while (lo < hi) { /* lo = first span starting after vaddr */
		size_t mid = lo + (hi - lo) / 2;

		if (t->s[mid].lo <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* spans of different units do not overlap, but a few may start
	 * below vaddr and end before it: look back a little */
	for (size_t k = lo; k-- > 0 && lo - k <= 4;) {
		struct unit *u;
		uint32_t r;

		if (vaddr >= t->s[k].hi)
			continue;
		u = &t->u[t->s[k].unit];
		if (u->state == 0)
			read_unit(t, u);
		if (u->state < 0 || (r = deepest(u, vaddr)) == NONE)
			continue;
		return chain(t, u, r, out, max, sub);
	}
	for (size_t i = 0; t && i < t->nu; i++) { /* units without spans */
		uint32_t r;

		if (!t->u[i].spanned && t->u[i].state == 1 &&
		    (r = deepest(&t->u[i], vaddr)) != NONE)
			return chain(t, &t->u[i], r, out, max, sub);
	}
	return 0;
}

const char *syminl_path(const struct syminl *t, const char *base)
{
	for (size_t i = 0; t && i < t->nfiles; i++)
		if (t->files[i].base == base)
			return t->files[i].path;
	return NULL;
}

int syminl_check(const struct syminl *t)
{
	for (size_t i = 0; t && i < t->nu; i++) {
		const struct unit *u = &t->u[i];

		for (size_t j = 0; j < u->nr; j++) {
			if (u->r[j].node >= u->nn ||
			    (u->r[j].up != NONE && u->r[j].up >= j))
				return -1;
			if (j && u->r[j - 1].lo > u->r[j].lo)
				return -1;
		}
		for (size_t j = 0; j < u->nn; j++)
			if (u->n[j].parent != NONE && u->n[j].parent >= j)
				return -1;
	}
	return 0;
}
