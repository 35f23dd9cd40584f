#!/usr/bin/env python3
"""Writes geo-enrich(1), a man page, from the built binary's own description of its commands.

swift-argument-parser's `generate-manual` plugin is available (`swift package plugin --list`),
but it builds the whole package again in release mode with its own flags: that replaces the
static `.build/release/geo-enrich` of scripts/build_cli.sh with one that needs a Swift
installation, and costs two full release builds (its own, then build_cli.sh's). So this reads
what that plugin reads, from the binary already built: `geo-enrich --experimental-dump-help`
(argument-parser's JSON "ToolInfo" of every command, option, abstract and discussion), and
writes one roff page with a section per subcommand. Only the standard library is used.

    python3 scripts/gen_manpage.py --bin .build/release/geo-enrich > geo-enrich.1

The date in the header is $SOURCE_DATE_EPOCH's, else the last commit's, else today's (the page
is the same bytes for the same binary and date).
"""
import argparse
import datetime
import json
import os
import subprocess
import sys


def roff(text: str) -> str:
    """Escapes text for roff: backslashes, hyphens, and lines that would start a request."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def paragraphs(text: str) -> str:
    """Blank-line separated paragraphs as roff paragraphs."""
    parts = [p.strip() for p in text.strip().split("\n\n") if p.strip()]
    return "\n.PP\n".join(roff(p) for p in parts)


def name_of(arg: dict) -> str:
    names = arg.get("names") or []
    for kind in ("long", "longWithSingleDash", "short"):
        for n in names:
            if n.get("kind") == kind:
                return ("--" if kind == "long" else "-") + n["name"]
    return "<" + arg.get("valueName", "value") + ">"


def all_names(arg: dict) -> str:
    out = []
    for n in arg.get("names") or []:
        out.append(("--" if n.get("kind") == "long" else "-") + n["name"])
    return ", ".join(out)


def usage(path: list, cmd: dict) -> str:
    words = [" ".join(path)]
    for arg in cmd.get("arguments") or []:
        if not arg.get("shouldDisplay", True) or name_of(arg) in ("--help", "--version"):
            continue
        kind = arg.get("kind")
        if kind == "positional":
            w = "<" + arg.get("valueName", "value") + ">"
        elif kind == "option":
            w = name_of(arg) + " <" + arg.get("valueName", "value") + ">"
        else:
            w = name_of(arg)
        if arg.get("isRepeating"):
            w += " ..."
        if arg.get("isOptional"):
            w = "[" + w + "]"
        words.append(w)
    if cmd.get("subcommands"):
        words.append("<subcommand>")
    return " ".join(words)


def arguments(cmd: dict) -> str:
    out = []
    for arg in cmd.get("arguments") or []:
        if not arg.get("shouldDisplay", True):
            continue
        kind = arg.get("kind")
        if kind == "positional":
            head = "<" + arg.get("valueName", "value") + ">"
        elif kind == "option":
            head = all_names(arg) + " <" + arg.get("valueName", "value") + ">"
        else:
            head = all_names(arg)
        text = arg.get("abstract", "")
        if arg.get("discussion"):
            text += "\n" + arg["discussion"] if isinstance(arg["discussion"], str) else ""
        if arg.get("allValues"):
            text += " (values: " + ", ".join(arg["allValues"]) + ")"
        if arg.get("defaultValue") not in (None, ""):
            text += " (default: " + str(arg["defaultValue"]) + ")"
        out.append(".TP\n\\fB" + roff(head) + "\\fR\n" + roff(text.strip()))
    return "\n".join(out)


def section(path: list, cmd: dict, level: str) -> list:
    """The roff of one command and, after it, of its subcommands."""
    out = []
    title = " ".join(path)
    if level == "SS":
        out.append('.SS "' + roff(title) + '"')
        if cmd.get("abstract"):
            out.append(roff(cmd["abstract"]))
            out.append(".PP")
    out.append(".PP\n\\fB" + roff(usage(path, cmd)) + "\\fR")
    if cmd.get("discussion") and level == "SS":
        out.append(".PP\n" + paragraphs(cmd["discussion"]))
    args = arguments(cmd)
    if args:
        out.append(args)
    for sub in cmd.get("subcommands") or []:
        if sub.get("commandName") == "help":
            continue
        out.extend(section(path + [sub["commandName"]], sub, "SS"))
    return out


def page_date() -> str:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        try:
            epoch = subprocess.run(["git", "log", "-1", "--format=%ct"], capture_output=True, text=True,
                                   cwd=os.path.dirname(os.path.abspath(__file__)), check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            epoch = ""
    when = (datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc) if epoch
            else datetime.datetime.now(datetime.timezone.utc))
    return when.strftime("%Y-%m-%d")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the built geo-enrich")
    args = ap.parse_args()
    try:
        dump = subprocess.run([args.bin, "--experimental-dump-help"], capture_output=True, text=True, check=True).stdout
        version = subprocess.run([args.bin, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"gen_manpage.py: cannot run {args.bin}: {e}", file=sys.stderr)
        return 1
    try:
        top = json.loads(dump)["command"]
    except (ValueError, KeyError) as e:
        print(f"gen_manpage.py: {args.bin} --experimental-dump-help did not print argument-parser's JSON: {e}",
              file=sys.stderr)
        return 1
    name = top["commandName"]
    subs = [s for s in top.get("subcommands") or [] if s.get("commandName") != "help"]
    if not subs:
        print(f"gen_manpage.py: {args.bin} describes no subcommands", file=sys.stderr)
        return 1

    out = [
        f'.TH {roff(name.upper())} 1 "{page_date()}" "{roff(name)} {roff(version)}" "User Commands"',
        ".SH NAME",
        f"{roff(name)} \\- {roff(top.get('abstract', ''))}",
        ".SH SYNOPSIS",
        ".nf",
        *(f"\\fB{roff(name)} {roff(s['commandName'])}\\fR [\\fIoptions\\fR]" for s in subs),
        f"\\fB{roff(name)}\\fR \\-\\-version",
        ".fi",
        ".SH DESCRIPTION",
        roff(top.get("abstract", "")),
    ]
    if top.get("discussion"):
        out += [".PP", paragraphs(top["discussion"])]
    out += [".SH COMMANDS"]
    for s in subs:
        out.extend(section([name, s["commandName"]], s, "SS"))
    out += [
        ".SH ENVIRONMENT",
        ".TP",
        "\\fBGEO_ENRICH_DATA\\fR",
        roff("The folder of the data files (countries.bin, postal_ca.bin), when --data is not given."),
        ".SH FILES",
        roff("The data folder is the first of: --data; $GEO_ENRICH_DATA; data/ beside the executable "
             "(/proc/self/exe), or the repository's data/ for a SwiftPM build; "
             "<bin>/../share/geo-enrich; /usr/share/geo-enrich. When none holds the files, the error "
             "lists every folder looked in. `geo-enrich about` names the folder found."),
        ".SH LICENSE",
        roff("Apache License 2.0. The third-party software and data it contains or uses, and their "
             "licences, are listed in NOTICE and THIRD-PARTY-NOTICES (installed in share/doc/geo-enrich)."),
    ]
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
