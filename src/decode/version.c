/* version.c — the versions of the decoder libraries, for --version
 * (src/decode/ is the only module that includes their headers). */
#include <stdio.h>

#include <Zydis/Zydis.h>
#include <capstone/capstone.h>

#include "decode/decode.h"

/* Zydis: the headers built against and the library loaded (the same
 * unless the shared library was replaced); Capstone: the library's
 * cs_version() and the package version of the headers. */
const char *dec_lib_versions(char *buf, size_t size)
{
	ZyanU64 z = ZydisGetVersion();
	int major = 0, minor = 0;

	cs_version(&major, &minor);
	snprintf(buf, size,
		 "Zydis %u.%u.%u (built with %u.%u.%u), Capstone %d.%d "
		 "(built with %d.%d.%d)",
		 ZYDIS_VERSION_MAJOR(z), ZYDIS_VERSION_MINOR(z),
		 ZYDIS_VERSION_PATCH(z), ZYDIS_VERSION_MAJOR(ZYDIS_VERSION),
		 ZYDIS_VERSION_MINOR(ZYDIS_VERSION),
		 ZYDIS_VERSION_PATCH(ZYDIS_VERSION), major, minor,
		 CS_VERSION_MAJOR, CS_VERSION_MINOR, CS_VERSION_EXTRA);
	return buf;
}
