"""``make bench-load``: the event-day load test, start to finish, on loopback.

Starts a throwaway PostgreSQL (as the ``postgres`` user, in a ``mktemp`` directory, on a
free port — like ``.ci/run``), a throwaway Redis (no persistence) and gunicorn with
``bench.load_settings`` (production settings over plain HTTP, ``CACHE_URL`` pointing at
that Redis); builds the event with ``bench/load_setup.py``; then runs locust headless:

1. mixed load (``bench/locustfile.py``): 300 visitors, 20 judges, 10 scorekeepers and
   300 players polling their own seat (issue 17), ramped up at 10 users/s, statistics reset once everyone is in, then ``LOAD_STEADY``
   seconds (default 75) of steady load;
2. saturation, the same server: ``LOAD_SAT_USERS`` (default 8) users with no think time
   on ``/healthz`` for ``LOAD_SAT_SECONDS`` (default 20), then the same on the cached
   public standings — the throughput comparison —, then on a signed-in player's
   unchanged seat poll (its CPU per request, the figure a busy machine leaves comparable).

Checks afterwards that every incident was saved once (double taps included) and prints
the report (markdown): locust's tables, the CPU time per request of gunicorn, PostgreSQL,
Redis and locust in each phase (from ``/proc``: comparable between runs even when other
work shares the machine), and the issue's targets, ``MET`` or ``MISSED`` one by one. CSVs
and logs stay in ``var/bench-load/``. Knobs: see docs/performance.md "How to reproduce". Every server started
here is stopped at the end, also on failure or Ctrl+C. Needs root (to run PostgreSQL as
``postgres``), PostgreSQL's server binaries and ``redis-server``.
"""

import contextlib
import json
import os
import platform
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
OUT = ROOT / "var" / "bench-load"
STEADY = int(os.environ.get("LOAD_STEADY", "75"))
SAT_USERS = int(os.environ.get("LOAD_SAT_USERS", "8"))
SAT_SECONDS = int(os.environ.get("LOAD_SAT_SECONDS", "20"))
WORKERS = int(os.environ.get("LOAD_WORKERS", "3"))
THREADS = int(os.environ.get("LOAD_THREADS", "1"))  # > 1: gunicorn's gthread workers
# Optional CPU pinning (taskset -c lists), e.g. LOAD_SERVER_CPUS=0 LOAD_LOCUST_CPUS=1.
SERVER_CPUS = os.environ.get("LOAD_SERVER_CPUS", "")
LOCUST_CPUS = os.environ.get("LOAD_LOCUST_CPUS", "")
FAST_CACHE = os.environ.get("LOAD_FAST_CACHE", "1") != "0"
P95_TARGET_MS = 150
PLAYER_P95_TARGET_MS = 100  # the players' seat poll (issue 17)
RATIO_TARGET = 0.5
USERS = 630  # 300 visitors + 20 judges + 10 scorekeepers + 300 players (fixed_count)
SPAWN_RATE = 10


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(cmd, **kwargs):
    return subprocess.run(cmd, check=True, **kwargs)


def as_postgres(cmd: str, **kwargs):
    return run(["su", "postgres", "-c", cmd], **kwargs)


def pg_bin() -> Path:
    versions = sorted(Path("/usr/lib/postgresql").iterdir(), key=lambda p: int(p.name))
    return versions[-1] / "bin"


def wait_http(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.3)


def version_of(cmd: list[str]) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.strip().splitlines()[0]
    except (OSError, IndexError):
        return "?"


def machine() -> dict:
    meminfo = dict(
        line.split(":", 1) for line in Path("/proc/meminfo").read_text().splitlines() if ":" in line
    )
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.machine(),
    )
    mem_kib = int(meminfo["MemTotal"].split()[0])
    return {
        "cpus": os.cpu_count(),
        "cpu_model": model,
        "ram_gib": round(mem_kib / 1024 / 1024, 1),
        "loadavg_before": Path("/proc/loadavg").read_text().split()[:3],
    }


def read_stats(prefix: Path) -> list[dict]:
    import csv

    with open(f"{prefix}_stats.csv") as fh:
        return list(csv.DictReader(fh))


TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str]:
    # Fields after "(comm)": state is [0], ppid [1], utime [11], stime [12], cutime [13],
    # cstime [14] (proc(5)).
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def tree_cpu(root: int) -> float:
    """CPU seconds used by process ``root`` and its descendants (live ones, and those it has
    reaped: its cutime/cstime), e.g. gunicorn's master and workers, or the postmaster and
    its backends."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                children.setdefault(int(_stat(int(entry.name))[1]), []).append(int(entry.name))
            except (OSError, IndexError):
                pass
    total, todo = 0.0, [root]
    try:
        fields = _stat(root)
        total += (int(fields[13]) + int(fields[14])) / TICK
    except OSError:
        return 0.0
    while todo:
        pid = todo.pop()
        try:
            fields = _stat(pid)
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICK
        todo.extend(children.get(pid, []))
    return total


METER: dict[str, int] = {}
"""Process trees whose CPU time each locust phase records: name -> root pid."""


def cpu_snapshot() -> dict[str, float]:
    import resource

    snap = {name: tree_cpu(pid) for name, pid in METER.items()}
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    snap["locust"] = usage.ru_utime + usage.ru_stime  # reaped children: the locust runs
    return snap


CPU: dict[str, dict[str, float]] = {}
"""CPU seconds per process tree during each locust phase (by CSV prefix name)."""


def locust(args: list[str], env: dict, prefix: Path, steady_after: float = 0) -> list[dict]:
    cmd = [
        *(["taskset", "-c", LOCUST_CPUS] if LOCUST_CPUS else []),
        str(VENV_BIN / "locust"),
        "-f",
        str(ROOT / "bench" / "locustfile.py"),
        "--headless",
        "--only-summary",
        "--reset-stats",
        "--csv",
        str(prefix),
        "--loglevel",
        "WARNING",
        *args,
    ]
    import threading

    before = cpu_snapshot()
    marks = {}
    timer = None
    if steady_after:
        # The statistics are reset once every user is in: measure the CPU from then on too
        # (the ramp's 30 sign-ins hash passwords, seconds of CPU that are not steady load).
        timer = threading.Timer(steady_after, lambda: marks.update(cpu_snapshot()))
        timer.start()
    with open(f"{prefix}.log", "w") as log:
        subprocess.run(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    if timer:
        timer.cancel()
    after = cpu_snapshot()
    start = marks or before
    # Locust's own CPU is only known once it exits: the whole run's, ramp included.
    CPU[prefix.name] = {
        k: after[k] - (before if k == "locust" else start).get(k, 0.0) for k in after
    }
    return read_stats(prefix)


def redis_stats(port: int) -> dict:
    import redis

    info = redis.Redis(port=port).info("stats")
    return {"hits": info["keyspace_hits"], "misses": info["keyspace_misses"]}


def main() -> None:
    if os.geteuid() != 0:
        raise SystemExit("bench-load needs root (it runs a throwaway PostgreSQL as postgres)")
    for tool in ("redis-server",):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing: apt-get install -y redis-server")
    OUT.mkdir(parents=True, exist_ok=True)
    facts = machine()
    tmp = Path(tempfile.mkdtemp(prefix="arbitro-load."))
    os.chmod(tmp, 0o755)
    pgdata = tmp / "pg"
    pgdata.mkdir()
    shutil.chown(pgdata, "postgres", "postgres")
    pg_port, redis_port, http_port = free_port(), free_port(), free_port()
    pgbin = pg_bin()
    procs: list[subprocess.Popen] = []
    pg_started = False
    try:
        as_postgres(f"{pgbin}/initdb -D {pgdata} -A trust -U postgres", stdout=subprocess.DEVNULL)
        as_postgres(
            f"{pgbin}/pg_ctl -D {pgdata} -o '-p {pg_port} -k /tmp -c listen_addresses=127.0.0.1"
            f" -c max_connections=50' -l {pgdata}/log -w start",
            stdout=subprocess.DEVNULL,
        )
        pg_started = True
        METER["PostgreSQL"] = int((pgdata / "postmaster.pid").read_text().split()[0])
        if SERVER_CPUS:
            run(
                ["taskset", "-a", "-c", "-p", SERVER_CPUS, str(METER["PostgreSQL"])],
                stdout=subprocess.DEVNULL,
            )
        as_postgres(
            f"psql -h 127.0.0.1 -p {pg_port} -U postgres -qc 'CREATE DATABASE arbitro'",
            stdout=subprocess.DEVNULL,
        )
        redis_log = open(OUT / "redis.log", "w")
        procs.append(
            subprocess.Popen(
                [*(["taskset", "-c", SERVER_CPUS] if SERVER_CPUS else [])]
                + ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1"]
                + ["--save", "", "--appendonly", "no", "--dir", str(tmp)],
                stdout=redis_log,
                stderr=subprocess.STDOUT,
            )
        )
        METER["Redis"] = procs[-1].pid
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "bench.load_settings",
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:{pg_port}/arbitro",
            "CACHE_URL": f"redis://127.0.0.1:{redis_port}/0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "PYTHONPATH": str(ROOT),
        }
        py = str(VENV_BIN / "python")
        t0 = time.perf_counter()
        run([py, "manage.py", "migrate", "--noinput", "-v", "0"], env=env, cwd=ROOT)
        migrate_s = time.perf_counter() - t0
        setup_file = OUT / "setup.json"
        run([py, "bench/load_setup.py", str(setup_file)], env=env, cwd=ROOT)
        gunicorn_log = open(OUT / "gunicorn.log", "w")
        procs.append(
            subprocess.Popen(
                [*(["taskset", "-c", SERVER_CPUS] if SERVER_CPUS else [])]
                + [str(VENV_BIN / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{http_port}"]
                + ["--workers", str(WORKERS), "--timeout", "30", "--backlog", "2048"]
                + (["--threads", str(THREADS)] if THREADS > 1 else []),
                env=env,
                cwd=ROOT,
                stdout=gunicorn_log,
                stderr=subprocess.STDOUT,
            )
        )
        METER["gunicorn"] = procs[-1].pid
        host = f"http://127.0.0.1:{http_port}"
        wait_http(f"{host}/healthz")
        env_locust = {
            **env,
            "LOAD_SETUP": str(setup_file),
            "LOAD_COUNTS": str(OUT / "counts.json"),
        }
        ramp = USERS / SPAWN_RATE
        print(f"mixed load: {USERS} users, ramp {ramp:.0f} s, then {STEADY} s steady", flush=True)
        before = redis_stats(redis_port)
        mixed = locust(
            ["-u", str(USERS), "-r", str(SPAWN_RATE), "-t", f"{int(ramp + STEADY)}s", "--host"]
            + [host, "Visitor", "Judge", "Scorekeeper", "Player"],
            env_locust,
            OUT / "mixed",
            steady_after=ramp + 3,
        )
        after = redis_stats(redis_port)
        loadavg_after = Path("/proc/loadavg").read_text().split()[:3]
        counts = json.loads((OUT / "counts.json").read_text())
        saved = (
            subprocess.run(
                [py, "manage.py", "shell", "-c"]
                + [
                    "from penalties.models import Penalty; from events.models import Table;"
                    "from django.db.models import Sum;"
                    "print(Penalty.objects.count(), Table.objects.aggregate(v=Sum('version'))['v'])"
                ],
                env=env,
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            )
            .stdout.strip()
            .splitlines()[-1]
            .split()
        )
        loadavg_mixed = loadavg_after
        print(f"saturation: {SAT_USERS} users, {SAT_SECONDS} s each, no think time", flush=True)
        sat = {}
        for cls in ("HealthzUser", "StandingsUser", "SeatPollUser"):
            sat[cls] = locust(
                ["-u", str(SAT_USERS), "-r", str(SAT_USERS), "-t", f"{SAT_SECONDS + 1}s"]
                + ["--host", host, cls],
                env_locust,
                OUT / f"sat-{cls}",
            )
        loadavg_end = Path("/proc/loadavg").read_text().split()[:3]
    finally:
        for proc in reversed(procs):
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(15)
            if proc.poll() is None:
                proc.kill()
        if pg_started:
            with contextlib.suppress(subprocess.CalledProcessError):
                as_postgres(f"{pgbin}/pg_ctl -D {pgdata} -m fast stop", stdout=subprocess.DEVNULL)
        shutil.rmtree(tmp, ignore_errors=True)

    versions = {
        "Python": platform.python_version(),
        "Django": _pkg("django"),
        "gunicorn": _pkg("gunicorn"),
        "psycopg": _pkg("psycopg"),
        "locust": _pkg("locust"),
        "redis-py": _pkg("redis"),
        "PostgreSQL": version_of([f"{pgbin}/postgres", "--version"]),
        "Redis": version_of(["redis-server", "--version"]),
    }
    report = render(
        facts, loadavg_mixed, versions, mixed, sat, before, after, counts, saved, migrate_s
    )
    report += f"Load average at the end: {' '.join(loadavg_end)}.\n"
    report += "\n" + cpu_table(mixed, sat) + "\n" + summary(mixed, sat, counts, saved)
    (OUT / "report.md").write_text(report)
    print(report)


def _pkg(name: str) -> str:
    from importlib.metadata import version

    return version(name)


def _row(r: dict) -> str:
    return (
        f"| {r['Name']} | {r['Request Count']} | {r['Failure Count']} | {r['50%']} | "
        f"{r['95%']} | {r['99%']} | {float(r['Requests/s']):.1f} |"
    )


def render(facts, loadavg_after, versions, mixed, sat, before, after, counts, saved, mig):
    lines = [
        f"Machine: {facts['cpus']} CPUs ({facts['cpu_model']}), {facts['ram_gib']} GiB RAM; "
        f"load average before {' '.join(facts['loadavg_before'])}, after the mixed run "
        f"{' '.join(loadavg_after)}.",
        "Versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()) + ".",
        f"gunicorn: {WORKERS} {'sync workers' if THREADS == 1 else f'gthread workers x {THREADS} threads'}; "
        f"locust on the same machine"
        + (
            f"; taskset: server CPUs {SERVER_CPUS or 'any'}, locust CPUs {LOCUST_CPUS or 'any'}"
            if SERVER_CPUS or LOCUST_CPUS
            else ""
        )
        + f". Early answer of cached public pages (events.middleware): {'on' if FAST_CACHE else 'off (LOAD_FAST_CACHE=0)'}. "
        f"Scorekeepers' think time: {os.environ.get('LOAD_SCOREKEEPER_WAIT', '3,8')} s.",
        "",
        f"Mixed load ({USERS} users, {STEADY} s steady after the ramp; times in ms):",
        "",
        "| request | requests | failures | p50 | p95 | p99 | req/s |",
        "|---|---|---|---|---|---|---|",
        *[_row(r) for r in mixed],
        "",
    ]
    hits = after["hits"] - before["hits"]
    misses = after["misses"] - before["misses"]
    rate = hits / (hits + misses) if hits + misses else 0
    lines += [
        "Whole run, ramp included: "
        f"incident POSTs: {counts.get('incidents', 0)} (+{counts.get('double_taps', 0)} double "
        f"taps); penalties in the database: {saved[0]}. Result saves: "
        f"{counts.get('result_saves', 0)}, conflicts (409, expected): "
        f"{counts.get('result_conflicts', 0)}; sum of table versions: {saved[1]}.",
        f"Redis cache during the mixed run: {hits} hits, {misses} misses (hit rate {rate:.1%}).",
        "",
        f"Saturation ({SAT_USERS} users, no think time, {SAT_SECONDS} s each):",
        "",
        "| request | requests | failures | p50 | p95 | p99 | req/s |",
        "|---|---|---|---|---|---|---|",
    ]
    totals = {}
    for cls, rows in sat.items():
        for r in rows:
            if r["Name"] != "Aggregated":
                lines.append(_row(r))
                totals[cls] = float(r["Requests/s"])
    if totals.get("HealthzUser"):
        ratio = totals.get("StandingsUser", 0) / totals["HealthzUser"]
        lines += ["", f"Cached standings at {ratio:.0%} of the trivial view's throughput."]
    lines.append(f"(migrate took {mig:.1f} s)")
    return "\n".join(lines) + "\n"


def _by_name(rows: list[dict], name: str) -> dict | None:
    return next((r for r in rows if r["Name"] == name), None)


def _sat_rate(sat: dict, cls: str) -> float:
    rows = [r for r in sat.get(cls, []) if r["Name"] != "Aggregated"]
    return float(rows[0]["Requests/s"]) if rows else 0.0


def cpu_table(mixed, sat) -> str:
    """CPU time per request of each process tree, per phase: unlike throughput, hardly
    affected by what else runs on the machine (it measures work, not waiting)."""
    phases = [("mixed", "mixed load", mixed)] + [
        (f"sat-{cls}", f"saturation, {label}", sat.get(cls, []))
        for cls, label in (
            ("HealthzUser", "/healthz"),
            ("StandingsUser", "cached standings"),
            ("SeatPollUser", "players' seat poll"),
        )
    ]
    names = ["gunicorn", "PostgreSQL", "Redis", "locust"]
    lines = [
        "CPU time per request (ms; CPU seconds of each process tree during the phase / requests):",
        "",
        "| phase | requests | " + " | ".join(names) + " | server total |",
        "|---|---|" + "---|" * (len(names) + 1),
    ]
    per_request = {}
    for key, label, rows in phases:
        agg = _by_name(rows, "Aggregated")
        cpu = CPU.get(key)
        if not agg or not cpu or not int(agg["Request Count"]):
            continue
        n = int(agg["Request Count"])
        # Mixed load: server CPU from 3 s after the ramp (when the statistics are reset);
        # locust's own for the whole run, ramp included (an upper bound).
        ms = {k: cpu.get(k, 0.0) * 1000 / n for k in names}
        server = ms["gunicorn"] + ms["PostgreSQL"] + ms["Redis"]
        per_request[key] = server
        lines.append(
            f"| {label} | {n} | " + " | ".join(f"{ms[k]:.2f}" for k in names) + f" | {server:.2f} |"
        )
    if per_request.get("sat-HealthzUser") and per_request.get("sat-StandingsUser"):
        lines += [
            "",
            "Server CPU per cached standings request is "
            f"{per_request['sat-StandingsUser'] / per_request['sat-HealthzUser']:.2f} x the "
            "trivial view's: with the server as the only bottleneck, cached standings could "
            f"reach {per_request['sat-HealthzUser'] / per_request['sat-StandingsUser']:.0%} "
            "of its throughput (diagnostic; the target is the measured ratio below).",
        ]
    return "\n".join(lines) + "\n"


def summary(mixed, sat, counts, saved) -> str:
    """Targets of issue 7, met or missed, from this run."""
    failures = sum(
        int(r["Failure Count"])
        for rows in [mixed, *sat.values()]
        for r in rows
        if r["Name"] != "Aggregated"
    )
    requests = sum(
        int(r["Request Count"])
        for rows in [mixed, *sat.values()]
        for r in rows
        if r["Name"] != "Aggregated"
    )
    lines = ["## Targets (issues 7 and 17)", ""]

    def verdict(ok: bool) -> str:
        return "MET   " if ok else "MISSED"

    lines.append(
        f"{verdict(failures == 0)} zero errors: {failures} failures in {requests} requests "
        f"(409 conflicts on result saves are expected answers, not failures)"
    )
    for name in ("incident log (POST)", "result save (POST)"):
        row = _by_name(mixed, name)
        p95 = float(row["95%"]) if row else float("nan")
        lines.append(
            f"{verdict(row is not None and p95 < P95_TARGET_MS)} {name} p95 < {P95_TARGET_MS} ms: "
            f"{p95:.0f} ms (p50 {row['50%'] if row else '?'} ms, {row['Request Count'] if row else 0} requests)"
        )
    row = _by_name(mixed, "my seat poll (htmx, player)")
    p95 = float(row["95%"]) if row else float("nan")
    errors = int(row["Failure Count"]) if row else -1
    lines.append(
        f"{verdict(row is not None and p95 < PLAYER_P95_TARGET_MS and errors == 0)} players' seat "
        f"poll p95 < {PLAYER_P95_TARGET_MS} ms, 0 errors: {p95:.0f} ms (p50 "
        f"{row['50%'] if row else '?'} ms, {row['Request Count'] if row else 0} polls, "
        f"{errors} failures; {counts.get('seat_unchanged', 0)} answered 204, "
        f"{counts.get('seat_changed', 0)} a new box, ramp included)"
    )
    healthz, standings = _sat_rate(sat, "HealthzUser"), _sat_rate(sat, "StandingsUser")
    ratio = standings / healthz if healthz else 0.0
    lines.append(
        f"{verdict(ratio >= RATIO_TARGET)} cached standings >= {RATIO_TARGET:.0%} of the trivial "
        f"view's throughput: {ratio:.0%} ({standings:,.1f} vs {healthz:,.1f} req/s)"
    )
    posts = counts.get("incidents", 0)
    lines.append(
        f"       (integrity) {posts} incident POSTs (+{counts.get('double_taps', 0)} double taps) "
        f"-> {saved[0]} penalties in the database (one more if a POST was in flight at the stop)"
    )
    load = float(Path("/proc/loadavg").read_text().split()[0])
    if load > 1.0:
        lines.append(
            f"       note: load average {load:.2f} now: other work shares the machine, so the "
            "latencies are pessimistic; re-run on a quiet machine for the record."
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
