#ifndef PODCAST_CLIBXML2_SHIM_H
#define PODCAST_CLIBXML2_SHIM_H

// Debian builds libxml2 with ICU; its ICU types clash with the ICU inside Foundation
// ('UErrorCode' has different definitions). We never need libxml2's ICU paths.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlreader.h>
#include <libxml/entities.h>
#include <libxml/encoding.h>
#include <libxml/HTMLparser.h>
#include <libxml/uri.h>

// libxml2 prints some errors (e.g. "xmlParseChunk: encoder error") straight through its
// variadic generic-error hook, which Swift cannot implement. The feed parser reports errors
// itself and a library must not print: this silences the hook for the calling thread.
static inline void podcast_xml_ignore_generic_error(void *ctx, const char *msg, ...) {
  (void)ctx;
  (void)msg;
}
static inline void podcast_xml_silence_generic_errors(void) {
  xmlSetGenericErrorFunc(NULL, podcast_xml_ignore_generic_error);
}

#endif
