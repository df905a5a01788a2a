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

#endif
