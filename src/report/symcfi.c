/* symcfi.c — x86-64 CFA rules from .eh_frame / .debug_frame, via
 * libdwarf 20210528 (dwarf_get_fde_at_pc, dwarf_get_fde_info_for_
 * cfa_reg3_b and _reg3_b).  Semantics are in symcfi.h. */
#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>
#include <stdlib.h>
#include <unistd.h>

#include "report/symcfi.h"

#define REG_RBP 6
#define REG_RSP 7

struct entry {
	uint64_t key; /* vaddr + 1, 0 = empty */
	bool ok;
	struct symcfi_rule r;
};

struct symcfi {
	int fd;
	Dwarf_Debug dbg;
	struct list {       /* [0] .eh_frame, [1] .debug_frame */
		Dwarf_Cie *cie;
		Dwarf_Signed ncie;
		Dwarf_Fde *fde;
		Dwarf_Signed nfde;
	} l[2];
	struct entry *cache; /* open addressing, cap a power of two */
	size_t cap, n;
};

static int failed(Dwarf_Debug dbg, int res, Dwarf_Error *err)
{
	if (res == DW_DLV_ERROR)
		dwarf_dealloc_error(dbg, *err);
	return res != DW_DLV_OK;
}

struct symcfi *symcfi_load(int fd)
{
	Dwarf_Error err = NULL;
	struct symcfi *t = calloc(1, sizeof *t);

	if (!t)
		return NULL;
	t->fd = dup(fd);
	if (t->fd < 0 ||
	    failed(NULL, dwarf_init_b(t->fd, DW_DLC_READ, DW_GROUPNUMBER_ANY,
				      NULL, NULL, &t->dbg, &err), &err)) {
		t->dbg = NULL;
		symcfi_free(t);
		return NULL;
	}
	if (failed(t->dbg, dwarf_get_fde_list_eh(t->dbg, &t->l[0].cie,
						 &t->l[0].ncie, &t->l[0].fde,
						 &t->l[0].nfde, &err), &err))
		t->l[0].fde = NULL;
	/* code compiled without unwind tables (Rust's panic_abort) has
	 * its CFI in .debug_frame only */
	if (failed(t->dbg, dwarf_get_fde_list(t->dbg, &t->l[1].cie,
					      &t->l[1].ncie, &t->l[1].fde,
					      &t->l[1].nfde, &err), &err))
		t->l[1].fde = NULL;
	if (!t->l[0].fde && !t->l[1].fde) {
		symcfi_free(t);
		return NULL;
	}
	return t;
}

void symcfi_free(struct symcfi *t)
{
	Dwarf_Error err = NULL;

	if (!t)
		return;
	for (int i = 0; i < 2; i++)
		if (t->l[i].fde)
			dwarf_fde_cie_list_dealloc(t->dbg, t->l[i].cie,
						   t->l[i].ncie, t->l[i].fde,
						   t->l[i].nfde);
	if (t->dbg && dwarf_finish(t->dbg, &err) == DW_DLV_ERROR)
		dwarf_dealloc_error(NULL, err);
	if (t->fd >= 0)
		close(t->fd);
	free(t->cache);
	free(t);
}

/* The rule from libdwarf (0), or -1. */
static int compute(struct symcfi *t, uint64_t vaddr, struct symcfi_rule *r)
{
	Dwarf_Error err = NULL;
	Dwarf_Fde fde;
	Dwarf_Addr lo, hi, row;
	Dwarf_Small type;
	Dwarf_Signed rel, reg, off;
	Dwarf_Ptr block;
	Dwarf_Bool more;
	Dwarf_Addr next;

	if ((!t->l[0].fde ||
	     failed(t->dbg, dwarf_get_fde_at_pc(t->l[0].fde, vaddr, &fde, &lo,
						&hi, &err), &err)) &&
	    (!t->l[1].fde ||
	     failed(t->dbg, dwarf_get_fde_at_pc(t->l[1].fde, vaddr, &fde, &lo,
						&hi, &err), &err)))
		return -1;
	if (failed(t->dbg, dwarf_get_fde_info_for_cfa_reg3_b(
				   fde, vaddr, &type, &rel, &reg, &off, &block,
				   &row, &more, &next, &err), &err) ||
	    type != DW_EXPR_OFFSET || (reg != REG_RSP && reg != REG_RBP))
		return -1;
	r->reg = (int)reg;
	r->off = off;
	r->rbp_saved = false;
	if (failed(t->dbg, dwarf_get_fde_info_for_reg3_b(
				   fde, REG_RBP, vaddr, &type, &rel, &reg, &off,
				   &block, &row, &more, &next, &err), &err))
		return -1;
	/* callee-saved: a rule that says nothing means unchanged */
	if (reg == DW_FRAME_SAME_VAL || reg == DW_FRAME_UNDEFINED_VAL ||
	    (type == DW_EXPR_OFFSET && !rel && reg == REG_RBP))
		return 0;
	if (type != DW_EXPR_OFFSET || !rel)
		return -1; /* rbp in another register, or an expression */
	r->rbp_saved = true;
	r->rbp_off = off;
	return 0;
}

static struct entry *slot(struct symcfi *t, uint64_t vaddr)
{
	size_t i = (size_t)((vaddr * 0x9e3779b97f4a7c15ull) >> 20) &
		   (t->cap - 1);

	while (t->cache[i].key && t->cache[i].key != vaddr + 1)
		i = (i + 1) & (t->cap - 1);
	return &t->cache[i];
}

static int grow(struct symcfi *t)
{
	struct entry *old = t->cache;
	size_t ocap = t->cap;

	t->cap = ocap ? 2 * ocap : 256;
	t->cache = calloc(t->cap, sizeof *t->cache);
	if (!t->cache) {
		t->cache = old;
		t->cap = ocap;
		return -1;
	}
	for (size_t i = 0; i < ocap; i++)
		if (old[i].key)
			*slot(t, old[i].key - 1) = old[i];
	free(old);
	return 0;
}

int symcfi_rule(struct symcfi *t, uint64_t vaddr, struct symcfi_rule *out)
{
	struct entry *e;

	if (!t)
		return -1;
	if (2 * (t->n + 1) > t->cap && grow(t) < 0)
		return compute(t, vaddr, out);
	e = slot(t, vaddr);
	if (!e->key) {
		e->key = vaddr + 1;
		e->ok = compute(t, vaddr, &e->r) == 0;
		t->n++;
	}
	*out = e->r;
	return e->ok ? 0 : -1;
}
