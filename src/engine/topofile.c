/*
 * topofile.c -- the topology file of `[topology] type = file`
 * (docs/config.md "Topology file format"): one statement per line, '#'
 * comments,
 *   host NAME [NAME...]      switch NAME [NAME...]      link A B RATE DELAY [longhaul]
 *   route SWITCH DST NEXT[,NEXT...]      route SWITCH * NEXT[,NEXT...]
 * Nodes and links go into the scenario's net as they are read; routes are
 * checked and installed (net_add_route) once the whole file is read, so a
 * route may come before the links it uses.  Errors read "PATH:LINE: ...".
 */
#include "engine/scenario.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/text.h"
#include "core/units.h"

/* "FILE:LINE: message" for errors in files other than the scenario. */
static int file_errorf(struct cfg_err *err, const char *path, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int file_errorf(struct cfg_err *err, const char *path, int line, const char *fmt, ...)
{
    char msg[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(err->msg, sizeof err->msg, "%.100s:%d: %s", path, line, msg);
    else
        snprintf(err->msg, sizeof err->msg, "%.100s: %s", path, msg);
    text_escape_inplace(err->msg, sizeof err->msg);   /* messages quote file text */
    return -1;
}

/* The characters of a node name (docs/config.md, "Topology file format"). */
#define NODE_NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"

/* A route statement as read; dst NONE32 is '*'. */
struct route_line { int line; uint32_t sw, dst, off, cnt; };
struct routes_rd {
    struct route_line *r;  uint32_t n, cap;
    uint32_t *next;        uint32_t n_next, cap_next;
};

static int rd_push(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    uint32_t nc = *cap ? *cap * 2 : 16;
    while (nc < need)
        nc *= 2;
    void *np = realloc(*p, (size_t)nc * elem);
    if (!np)
        return -1;
    *p = np;
    *cap = nc;
    return 0;
}

/* route SWITCH DST|* NEXT[,NEXT...]: names resolved now (nodes are declared
 * before use, as for links), the rest checked by routes_install. */
static int route_parse(struct scenario *sc, struct routes_rd *rd, char **tok, int nt,
                       const char *path, int ln, struct cfg_err *err)
{
    if (nt != 4)
        return file_errorf(err, path, ln, "expected 'route SWITCH DST NEXT[,NEXT...]' (DST a host or '*')");
    uint32_t sw = scenario_node(sc, tok[1]);
    if (sw == NONE32)
        return file_errorf(err, path, ln, "route: unknown node '%s'", tok[1]);
    if (sc->net.nodes[sw].kind != NODE_SWITCH)
        return file_errorf(err, path, ln, "route: '%s' is not a switch", tok[1]);
    uint32_t dst = NONE32;
    if (strcmp(tok[2], "*") != 0) {
        dst = scenario_node(sc, tok[2]);
        if (dst == NONE32)
            return file_errorf(err, path, ln, "route: unknown node '%s'", tok[2]);
        if (sc->net.nodes[dst].kind != NODE_HOST)
            return file_errorf(err, path, ln, "route: destination '%s' is not a host", tok[2]);
    }
    for (uint32_t i = 0; i < rd->n; i++)
        if (rd->r[i].sw == sw && rd->r[i].dst == dst)
            return file_errorf(err, path, ln, "route: a second route at '%s' for %s (the first is on line %d)",
                               tok[1], dst == NONE32 ? "'*'" : tok[2], rd->r[i].line);
    if (rd_push((void **)&rd->r, &rd->cap, rd->n + 1, sizeof *rd->r))
        return file_errorf(err, path, ln, "out of memory");
    uint32_t off = rd->n_next, cnt = 0;
    char *save = NULL;
    for (char *t = strtok_r(tok[3], ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        uint32_t v = scenario_node(sc, t);
        if (v == NONE32)
            return file_errorf(err, path, ln, "route: unknown next hop '%s'", t);
        for (uint32_t j = off; j < rd->n_next; j++)
            if (rd->next[j] == v)
                return file_errorf(err, path, ln, "route: next hop '%s' is listed twice", t);
        if (cnt == 255)
            return file_errorf(err, path, ln, "route: more than 255 next hops");
        if (rd_push((void **)&rd->next, &rd->cap_next, rd->n_next + 1, sizeof *rd->next))
            return file_errorf(err, path, ln, "out of memory");
        rd->next[rd->n_next++] = v;
        cnt++;
    }
    if (cnt == 0)
        return file_errorf(err, path, ln, "route: no next hop");
    rd->r[rd->n++] = (struct route_line){ ln, sw, dst, off, cnt };
    return 0;
}

/* After the file: install the explicit routes, then each '*' route for the
 * hosts of the net that have no route of their own at that switch and are
 * not attached to it (a host's own switch keeps delivering to it). */
static int routes_install(struct scenario *sc, struct routes_rd *rd, const char *path, struct cfg_err *err)
{
    struct net *n = &sc->net;
    char why[256];
    for (uint32_t i = 0; i < rd->n; i++) {
        const struct route_line *r = &rd->r[i];
        if (r->dst != NONE32 &&
            net_add_route(n, r->sw, r->dst, rd->next + r->off, r->cnt, why, sizeof why))
            return file_errorf(err, path, r->line, "route: %s", why);
    }
    for (uint32_t i = 0; i < rd->n; i++) {
        const struct route_line *r = &rd->r[i];
        if (r->dst != NONE32)
            continue;
        for (uint32_t h = 0; h < n->n_nodes; h++) {
            if (n->nodes[h].kind != NODE_HOST)
                continue;
            int own = 0;
            for (uint32_t j = 0; j < rd->n && !own; j++)
                own = rd->r[j].sw == r->sw && rd->r[j].dst == h;
            for (uint32_t l = 0; l < n->n_links && !own; l++)
                own = (n->links[l].a == h && n->links[l].b == r->sw) || (n->links[l].b == h && n->links[l].a == r->sw);
            if (!own && net_add_route(n, r->sw, h, rd->next + r->off, r->cnt, why, sizeof why))
                return file_errorf(err, path, r->line, "route: %s (for destination %s)", why, n->nodes[h].name);
        }
    }
    return 0;
}

int scenario_topo_file(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    const struct cfg_entry *e = cfg_find(c, "topology", "file");
    if (!e)
        return cfg_section_errorf(err, c, "topology", "type = file needs a 'file' key");
    char path[4096];
    const char *base = cfg_path(c), *slash = strrchr(base, '/');
    if (e->value[0] == '/' || !slash)
        snprintf(path, sizeof path, "%s", e->value);
    else
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - base), base, e->value);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return cfg_errorf(err, e, "cannot open topology file '%s'", path);
    struct stat fst;
    if (fstat(fileno(fp), &fst) == 0 && S_ISDIR(fst.st_mode)) {   /* fopen succeeds on one: "no nodes" misled */
        fclose(fp);
        return cfg_errorf(err, e, "topology file '%s' is a directory", path);
    }
    char line[4096];
    int ln = 0, rc = 0;
    struct routes_rd rd = { 0 };
    while (rc == 0 && fgets(line, sizeof line, fp)) {
        ln++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *tok[256];
        int nt = 0, too_many = 0;
        for (char *t = strtok(line, " \t\r\n"); t; t = strtok(NULL, " \t\r\n")) {
            if (nt == 256) {
                too_many = 1;
                break;
            }
            tok[nt++] = t;
        }
        if (nt == 0)
            continue;
        if (too_many) {
            rc = file_errorf(err, path, ln, "more than 255 names on one line");
            break;
        }
        if (!strcmp(tok[0], "host") || !strcmp(tok[0], "switch")) {
            if (nt < 2) {
                rc = file_errorf(err, path, ln, "'%s' needs a name", tok[0]);
            }
            for (int i = 1; i < nt && rc == 0; i++) {
                /* Node names become port names in every output and titles in
                 * plots: a documented, shell- and gnuplot-inert set only. */
                size_t okc = strspn(tok[i], NODE_NAME_CHARS);
                if (tok[i][okc]) {
                    unsigned char bad = (unsigned char)tok[i][okc];
                    char shown[8];
                    snprintf(shown, sizeof shown, bad > 0x20 && bad < 0x7f ? "'%c'" : "0x%02x", bad);
                    rc = file_errorf(err, path, ln, "%s: node name %d has the character %s: names use only "
                                     "letters, digits, '_', '.' and '-'", tok[0], i, shown);
                } else if (scenario_node(sc, tok[i]) != NONE32 || strlen(tok[i]) >= 24) {
                    rc = file_errorf(err, path, ln, "node name '%.40s' is a duplicate or longer than 23 characters", tok[i]);
                } else {
                    net_add_node(&sc->net, tok[0][0] == 'h' ? NODE_HOST : NODE_SWITCH, tok[i]);
                }
            }
        } else if (!strcmp(tok[0], "link")) {
            uint64_t rate, delay;
            int ok_nt = nt == 5 || nt == 6;
            uint32_t a = ok_nt ? scenario_node(sc, tok[1]) : NONE32;
            uint32_t b = ok_nt ? scenario_node(sc, tok[2]) : NONE32;
            if (!ok_nt) {
                rc = file_errorf(err, path, ln, "expected 'link A B RATE DELAY [longhaul]'");
            } else if (nt == 6 && strcmp(tok[5], "longhaul") != 0) {
                rc = file_errorf(err, path, ln, "link: unknown option '%s' (the only one is 'longhaul')", tok[5]);
            } else if (nt == 6 && (sc->net.nodes[a].kind != NODE_SWITCH || sc->net.nodes[b].kind != NODE_SWITCH)) {
                rc = file_errorf(err, path, ln, "link: a longhaul link joins two switches");
            } else if (a == NONE32 || b == NONE32) {
                rc = file_errorf(err, path, ln, "link: unknown node '%s'",
                         a == NONE32 ? tok[1] : tok[2]);
            } else if (units_parse_rate_bps(tok[3], &rate) || rate == 0) {
                rc = file_errorf(err, path, ln, "link: bad rate '%s' (e.g. 40Gbps)", tok[3]);
            } else if (units_parse_time_ps(tok[4], &delay)) {
                rc = file_errorf(err, path, ln, "link: bad delay '%s' (e.g. 1.5us)", tok[4]);
            } else {
                uint32_t l = net_add_link(&sc->net, a, b, rate, delay);
                if (nt == 6 && l != NONE32)
                    net_link_set_longhaul(&sc->net, l);
            }
        } else if (!strcmp(tok[0], "route")) {
            rc = route_parse(sc, &rd, tok, nt, path, ln, err);
        } else {
            rc = file_errorf(err, path, ln, "unknown statement '%s' (host, switch, link, route)", tok[0]);
        }
    }
    if (rc == 0 && ferror(fp))
        rc = file_errorf(err, path, ln + 1, "read error: %s", strerror(errno));
    if (rc == 0 && sc->net.n_nodes == 0) {
        rc = file_errorf(err, path, 0, "no nodes");
    }
    if (rc == 0)
        rc = routes_install(sc, &rd, path, err);
    free(rd.r);
    free(rd.next);
    fclose(fp);
    return rc;
}

