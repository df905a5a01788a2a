#ifndef PODCAST_CTAGLIBSYSTEM_SHIM_H
#define PODCAST_CTAGLIBSYSTEM_SHIM_H

// TagLib's headers are C++, so nothing is exported to Swift from here. This system library
// exists for what SwiftPM derives from it: pkg-config's include path (the TagLib headers) for
// the CTagLib shim that depends on it, and `-ltag` for whatever links the shim.

#endif
