#pragma once
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

// MHD_get_connection_info is variadic, and Swift cannot call C variadic functions.
// The info types Herald asks for take no extra argument, so a fixed-arity inline
// wrapper is exact. (MHD_start_daemon is reached through MHD_start_daemon_va.)
static inline const union MHD_ConnectionInfo *
herald_mhd_connection_info(struct MHD_Connection *connection,
                           enum MHD_ConnectionInfoType type) {
  return MHD_get_connection_info(connection, type);
}
