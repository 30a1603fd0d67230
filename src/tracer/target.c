/* target.c — up-front checks of the program file (target.h). */
#include "tracer/target.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *type_name(unsigned t)
{
	switch (t) {
	case ET_REL: return "a relocatable object file (.o)";
	case ET_CORE: return "a core dump";
	default: return "an ELF file of an unknown type";
	}
}

static const char *machine_name(unsigned m)
{
	switch (m) {
	case EM_386: return "i386";
	case EM_ARM: return "ARM";
	case EM_AARCH64: return "AArch64";
	case EM_RISCV: return "RISC-V";
	case EM_PPC64: return "PowerPC 64";
	case EM_S390: return "s390";
	default: return "another machine";
	}
}

/* The ELF header's class and machine, read by hand: libelf's gelf
 * accessors handle both classes, but a message about a 32-bit file needs
 * no more than the identification bytes. */
static int check_ident(const unsigned char *h, size_t n, char *msg,
		       size_t size)
{
	unsigned machine;

	if (n >= 2 && h[0] == '#' && h[1] == '!') {
		size_t k = 2;
		while (k < n && k < 80 && h[k] != '\n')
			k++;
		snprintf(msg, size, "a script (%.*s), not an ELF binary: run "
			 "x86smc on the program itself", (int)k,
			 (const char *)h);
		return -1;
	}
	if (n < 20 || memcmp(h, ELFMAG, SELFMAG) != 0) {
		snprintf(msg, size, "not an ELF file (x86smc runs x86-64 "
			 "Linux binaries)");
		return -1;
	}
	machine = h[5] == ELFDATA2MSB ? (unsigned)h[18] << 8 | h[19]
				      : (unsigned)h[19] << 8 | h[18];
	if (h[4] != ELFCLASS64) {
		snprintf(msg, size, "a 32-bit ELF (%s): x86smc checks x86-64 "
			 "programs only", machine_name(machine));
		return -1;
	}
	if (machine != EM_X86_64) {
		snprintf(msg, size, "an ELF for %s: x86smc checks x86-64 "
			 "programs only", machine_name(machine));
		return -1;
	}
	return 0;
}

static int check_interp(Elf *e, size_t phnum, struct target_info *info,
			char *msg, size_t size)
{
	GElf_Phdr ph;
	size_t len;
	char *image = elf_rawfile(e, &len);

	info->is_static = true;
	for (size_t i = 0; i < phnum; i++) {
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_INTERP)
			continue;
		info->is_static = false;
		if (!image || ph.p_offset >= len || ph.p_filesz == 0 ||
		    ph.p_filesz > 4096 || ph.p_offset + ph.p_filesz > len)
			break;
		char interp[4097];
		memcpy(interp, image + ph.p_offset, ph.p_filesz);
		interp[ph.p_filesz] = 0;
		if (access(interp, X_OK) != 0) {
			snprintf(msg, size, "its ELF interpreter %s is missing "
				 "(%s)", interp, strerror(errno));
			return -1;
		}
	}
	return 0;
}

static bool has_symtab(Elf *e)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			return true;
	return false;
}

static int check_elf(int fd, struct target_info *info, char *msg,
		     size_t size)
{
	Elf *e;
	GElf_Ehdr eh;
	size_t phnum = 0;
	int r = -1;

	if (elf_version(EV_CURRENT) == EV_NONE ||
	    !(e = elf_begin(fd, ELF_C_READ_MMAP, NULL))) {
		snprintf(msg, size, "not a readable ELF file (%s)",
			 elf_errmsg(-1));
		return -1;
	}
	if (!gelf_getehdr(e, &eh) || elf_getphdrnum(e, &phnum) != 0) {
		snprintf(msg, size, "a damaged ELF file (%s)", elf_errmsg(-1));
		goto out;
	}
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		snprintf(msg, size, "%s, not a program", type_name(eh.e_type));
		goto out;
	}
	if (eh.e_entry == 0 || phnum == 0) {
		snprintf(msg, size, "an ELF without an entry point (a shared "
			 "library?), not a program");
		goto out;
	}
	info->is_pie = eh.e_type == ET_DYN;
	if (check_interp(e, phnum, info, msg, size) < 0)
		goto out;
	info->has_symtab = has_symtab(e);
	r = 0;
out:
	elf_end(e);
	return r;
}

int target_check(const char *path, struct target_info *info, char *msg,
		 size_t size)
{
	unsigned char head[128];
	struct stat st;
	ssize_t n;
	int fd, r;

	memset(info, 0, sizeof *info);
	if (stat(path, &st) != 0) {
		snprintf(msg, size, "%s%s", strerror(errno),
			 strchr(path, '/') ? ""
					   : " (x86smc does not search PATH: "
					     "give a path such as ./prog)");
		return -1;
	}
	if (S_ISDIR(st.st_mode) || !S_ISREG(st.st_mode)) {
		snprintf(msg, size, "%s, not a program file",
			 S_ISDIR(st.st_mode) ? "a directory" : "a special file");
		return -1;
	}
	if (access(path, X_OK) != 0) {
		snprintf(msg, size, "not executable (chmod +x?)");
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(msg, size, "cannot be read (%s): x86smc reads the "
			 "binary's symbols", strerror(errno));
		return -1;
	}
	n = pread(fd, head, sizeof head, 0);
	r = check_ident(head, n < 0 ? 0 : (size_t)n, msg, size);
	if (r == 0)
		r = check_elf(fd, info, msg, size);
	close(fd);
	return r;
}
