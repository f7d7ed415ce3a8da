/* What a stopped xgraph must not leave behind: the files of the drawing
 * under way (gnuplot's script and log, the figure under its temporary
 * name), removed when SIGTERM, SIGINT or SIGHUP ends the tool. */
#ifndef CR_XGRAPH_PENDING_H
#define CR_XGRAPH_PENDING_H

#include <sys/types.h>

/* From now on, those signals remove the pending files first. */
void xg_pending_on_signals(void);

/* The gnuplot drawing them, stopped (SIGKILL) and waited for before they
 * are removed, so that it cannot write one again after; 0 when none. A
 * signal to xgraph alone does not reach it otherwise. */
void xg_pending_child(pid_t pid);

/* path is pending until xg_pending_done(path) (or every one, NULL). */
void xg_pending_add(const char *path);
void xg_pending_done(const char *path);

#endif
