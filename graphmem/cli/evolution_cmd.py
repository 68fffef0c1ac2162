"""Time and evolution commands: supersede, consolidate, history, changes, forget. Each prints JSON."""

from __future__ import annotations

import argparse
import getpass
import sys
from dataclasses import asdict, replace

from graphmem.cli.output import print_json
from graphmem.config import get_settings
from graphmem.db import Store
from graphmem.errors import InvalidInput
from graphmem.evolution.changes import DEFAULT_LIMIT, changes
from graphmem.evolution.consolidate import consolidate
from graphmem.evolution.forget import forget
from graphmem.evolution.history import history
from graphmem.evolution.supersede import supersede
from graphmem.timeutil import parse_time


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("supersede", help="dated supersession: NEW replaces OLD from AT (nothing is deleted)")
    p.add_argument("--space", required=True)
    p.add_argument("--new", required=True, dest="new_id", metavar="ID")
    p.add_argument("--old", required=True, dest="old_id", metavar="ID")
    p.add_argument("--at", required=True, help="ISO 8601 time the new version took over")
    p.add_argument("--reason")
    p.add_argument("--by", help="who made the change")
    p.set_defaults(handler=_supersede)

    p = sub.add_parser("consolidate", help="one consolidation pass; prints a JSON report last")
    p.add_argument("--space", required=True)
    p.add_argument("--classifier", choices=("auto", "rules", "llm"), help="overrides GRAPHMEM_CONSOLIDATE_CLASSIFIER")
    p.add_argument("--dry-run", action="store_true", help="classify and plan, write nothing")
    p.set_defaults(handler=_consolidate)

    p = sub.add_parser("history", help="a node's whole version chain, oldest first")
    p.add_argument("id")
    p.add_argument("--space", required=True)
    p.set_defaults(handler=_history)

    p = sub.add_parser("changes", help="what was added, superseded or merged in [SINCE, UNTIL); one JSON per line")
    p.add_argument("--space", required=True)
    p.add_argument("--since", required=True)
    p.add_argument("--until", required=True)
    p.add_argument("--limit", type=int, default=DEFAULT_LIMIT)
    p.set_defaults(handler=_changes)

    p = sub.add_parser(
        "forget",
        help="ERASE a document or episode (--id), an author's records (--author) or a whole space (--all), "
        "with what rested only on them (audited; resumable; needs --yes)",
    )
    p.add_argument("--space", required=True)
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("--id", "--episode", dest="id", metavar="ID", help="a document, unit or episode id")
    target.add_argument("--author", metavar="NAME", help="every document, step and turn NAME wrote in the space")
    target.add_argument("--all", action="store_true", help="everything in the space (audit records stay)")
    p.add_argument("--reason", help="why (goes into the audit record)")
    p.add_argument("--by", help="who asked for the erase (default: cli:<os user>)")
    p.add_argument("--batch-size", type=int, help="units per transaction (default GRAPHMEM_FORGET_BATCH_SIZE)")
    p.add_argument("--yes", action="store_true", help="confirm: this is a real, irreversible delete")
    p.set_defaults(handler=_forget)


def _store() -> Store:
    return Store.from_settings(get_settings())


def _supersede(args: argparse.Namespace) -> int:
    at = parse_time("--at", args.at)
    with _store() as store:
        created = supersede(store, args.space, args.new_id, args.old_id, at, reason=args.reason, by=args.by)
    print_json({"space": args.space, "new_id": args.new_id, "old_id": args.old_id, "at": at, "created": created})
    return 0


def _consolidate(args: argparse.Namespace) -> int:
    settings = get_settings()
    if args.classifier:
        settings = settings.model_copy(update={"consolidate_classifier": args.classifier})
    with _store() as store:
        report = consolidate(
            store,
            args.space,
            settings,
            dry_run=args.dry_run,
            progress=lambda stage: print(f"consolidate {args.space}: {stage}", file=sys.stderr, flush=True),
        )
    print_json(report.as_dict())
    return 0


def _history(args: argparse.Namespace) -> int:
    with _store() as store:
        chain = history(store, args.space, args.id)
    versions = [asdict(replace(v, links=())) for v in chain.versions]
    print_json({"id": chain.id, "versions": versions, "links": [asdict(link) for link in chain.links]})
    return 0


def _changes(args: argparse.Namespace) -> int:
    with _store() as store:
        rows = changes(store, args.space, args.since, args.until, limit=args.limit)
    for change in rows:
        print_json(asdict(change))
    return 0


def _forget(args: argparse.Namespace) -> int:
    if not args.yes:
        raise InvalidInput("--yes", "forget erases data for good; an admin must confirm with --yes")
    by = args.by or f"cli:{getpass.getuser()}"
    settings = get_settings()
    batch_size = args.batch_size if args.batch_size is not None else settings.forget_batch_size
    with Store.from_settings(settings) as store:
        report = forget(store, args.space, args.id, by, author=args.author, all=args.all or False,
                        reason=args.reason, batch_size=batch_size)  # fmt: skip
    print_json({**asdict(report), "removed_counts": report.removed_counts})
    return 0
