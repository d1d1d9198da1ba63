// askhost web's command line, declared once for the one reader (core/command_line.hpp): askhost
// lists it in its table (help, completions, --dump-options) and askhost-web parses with it. A
// header of constants only, so askhost itself links none of the web's code.
#pragma once

#include "core/command_line.hpp"

namespace askhost::web {

inline constexpr cli::Option kWebOptions[] = {
    {.name = "listen",
     .value = "ADDR:PORT",
     .help = "where to listen (default 127.0.0.1 and web-port from\n~/.config/askhost/config, else a free "
             "port); beyond loopback it needs\nTLS or --behind-proxy"},
    {.name = "public-name",
     .value = "NAME",
     .help = "a name the page is also reached by (a proxy's, tailscale serve's);\nrepeatable; config: "
             "web-public-name"},
    {.name = "tls-cert", .value = "FILE", .help = "serve HTTPS with this certificate (PEM chain)"},
    {.name = "tls-key", .value = "FILE", .help = "and this key (both or neither)"},
    {.name = "behind-proxy",
     .help = "plain HTTP beyond loopback, for a proxy in front that terminates TLS;\na client is the "
             "address the proxy forwards for (X-Forwarded-For)"},
    {.name = "on-question",
     .value = "CMD",
     .help = "run CMD when a question starts waiting, with ASKHOST_WEB_URL (the\npage's address, "
             "without the token) in its environment; repeatable"},
    {.name = "url",
     .help = "print the URL (with the token) of the askhost web that runs, once it\nproved it holds the "
             "token, and end; exit 1 when none runs"},
    {.name = "sign-in-link",
     .help = "print a one-time link for a new device (a phone): it signs in one\nbrowser within 10 minutes, "
             "then opens nothing"},
    {.name = "new-token",
     .help = "replace the token: links, cookies and pages opened with the old one\nstop working (also in a "
             "server that runs); also the Web Push key"},
    // Tests only: their stand-in for a push service is plain http on loopback (tests/web).
    {.name = "push-allow-http",
     .help = "push subscriptions to a test's stand-in on loopback (http or https, any port)",
     .hidden = true},
};

inline constexpr cli::Command kWebCommand{
    .name = "web",
    .synopsis = "[--listen ADDR:PORT] [--url] [--sign-in-link] [--new-token]",
    .summary = "every waiting question on one page, for a\nbrowser or a phone (docs/web.md)",
    .about =
        "Serve one page with every question every askhost of yours waits on (editors' hosts, agents\n"
        "askhost runs, askhost mcp and askhost hook waiting), to answer from a browser or a phone.\n"
        "The first line printed is the page's URL with its token; on a terminal a QR code of it follows.",
    .options = kWebOptions,
    .epilog = "See docs/web.md (ssh -L, tailscale serve, a systemd user unit, the security model).",
};

}  // namespace askhost::web
