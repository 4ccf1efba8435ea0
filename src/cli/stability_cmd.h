/* stability_cmd.h -- `roccsim stability` (see stability_cmd.c, docs/stability.md). */
#ifndef ROCC_STABILITY_CMD_H
#define ROCC_STABILITY_CMD_H

/* argv after "stability"; returns the exit status. */
int cmd_stability(int argc, char **argv);

/* argv after "stability lscc" (lscc_fluid_cmd.c): LSCC's loop as a fluid model. */
int cmd_stability_lscc(int argc, char **argv);

#endif
