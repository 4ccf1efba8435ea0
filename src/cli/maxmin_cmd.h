/* maxmin_cmd.h -- `roccsim maxmin` (see maxmin_cmd.c). */
#ifndef ROCC_MAXMIN_CMD_H
#define ROCC_MAXMIN_CMD_H

/* argv after "maxmin"; returns the exit status. */
int cmd_maxmin(int argc, char **argv);

#endif
