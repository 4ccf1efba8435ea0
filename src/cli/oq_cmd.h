/* oq_cmd.h -- `roccsim oq` (see oq_cmd.c). */
#ifndef ROCC_OQ_CMD_H
#define ROCC_OQ_CMD_H

/* argv after "oq"; returns the exit status. */
int cmd_oq(int argc, char **argv);
/* `roccsim oq crossbar N ...` (oq_xbar_cmd.c): argv after "crossbar". */
int cmd_oq_crossbar(int argc, char **argv);

#endif
