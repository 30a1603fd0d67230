/* maps.c — parse /proc/PID/maps. */
#include "tracer/maps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int push(struct maps *m, const struct map_region *r)
{
	if (m->n == m->cap) {
		int cap = m->cap ? 2 * m->cap : 64;
		void *p = realloc(m->r, (size_t)cap * sizeof *m->r);
		if (!p)
			return -1;
		m->r = p;
		m->cap = cap;
	}
	m->r[m->n++] = *r;
	return 0;
}

int maps_read(struct maps *m, pid_t pid)
{
	char path[64], line[512];
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	m->n = 0;
	while (fgets(line, sizeof line, f)) {
		struct map_region r = { 0 };
		char perms[8] = "";
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3)
			continue;
		r.lo = lo;
		r.hi = hi;
		r.perms = (perms[0] == 'r' ? MAP_R : 0) |
			  (perms[1] == 'w' ? MAP_W : 0) |
			  (perms[2] == 'x' ? MAP_X : 0);
		r.stack = strstr(line, "[stack]") != NULL;
		if (push(m, &r) < 0)
			break;
	}
	fclose(f);
	m->stale = false;
	return 0;
}

static const struct map_region *search(const struct maps *m, uint64_t a)
{
	int lo = 0, hi = m->n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (a < m->r[mid].lo)
			hi = mid - 1;
		else if (a >= m->r[mid].hi)
			lo = mid + 1;
		else
			return &m->r[mid];
	}
	return NULL;
}

const struct map_region *maps_find(struct maps *m, pid_t pid, uint64_t addr)
{
	const struct map_region *r = NULL;

	if (!m->stale)
		r = search(m, addr);
	if (!r && maps_read(m, pid) == 0)
		r = search(m, addr);
	return r;
}

void maps_free(struct maps *m)
{
	free(m->r);
	memset(m, 0, sizeof *m);
}
