"""``make bench-load``: the event-day load test, start to finish, on loopback.

Starts a throwaway PostgreSQL (as the ``postgres`` user, in a ``mktemp`` directory, on a
free port — like ``.ci/run``), a throwaway Redis (no persistence) and gunicorn with
``bench.load_settings`` (production settings over plain HTTP, ``CACHE_URL`` pointing at
that Redis); builds the event with ``bench/load_setup.py``; then runs locust headless:

1. mixed load (``bench/locustfile.py``): 300 visitors, 20 judges, 10 scorekeepers,
   ramped up at 10 users/s, statistics reset once everyone is in, then ``LOAD_STEADY``
   seconds (default 75) of steady load;
2. saturation, the same server: ``LOAD_SAT_USERS`` (default 8) users with no think time
   on ``/healthz`` for ``LOAD_SAT_SECONDS`` (default 20), then the same on the cached
   public standings — the throughput comparison.

Checks afterwards that every incident was saved once (double taps included) and prints
the report (markdown); CSVs and logs stay in ``var/bench-load/``. Every server started
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
USERS = 330  # 300 visitors + 20 judges + 10 scorekeepers (fixed_count in the locustfile)
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


def locust(args: list[str], env: dict, prefix: Path) -> list[dict]:
    cmd = [
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
    with open(f"{prefix}.log", "w") as log:
        subprocess.run(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
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
        as_postgres(
            f"psql -h 127.0.0.1 -p {pg_port} -U postgres -qc 'CREATE DATABASE arbitro'",
            stdout=subprocess.DEVNULL,
        )
        redis_log = open(OUT / "redis.log", "w")
        procs.append(
            subprocess.Popen(
                ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1"]
                + ["--save", "", "--appendonly", "no", "--dir", str(tmp)],
                stdout=redis_log,
                stderr=subprocess.STDOUT,
            )
        )
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
                [str(VENV_BIN / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{http_port}"]
                + ["--workers", str(WORKERS), "--timeout", "30", "--backlog", "2048"],
                env=env,
                cwd=ROOT,
                stdout=gunicorn_log,
                stderr=subprocess.STDOUT,
            )
        )
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
            + [host, "Visitor", "Judge", "Scorekeeper"],
            env_locust,
            OUT / "mixed",
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
        print(f"saturation: {SAT_USERS} users, {SAT_SECONDS} s each, no think time", flush=True)
        sat = {}
        for cls in ("HealthzUser", "StandingsUser"):
            sat[cls] = locust(
                ["-u", str(SAT_USERS), "-r", str(SAT_USERS), "-t", f"{SAT_SECONDS + 1}s"]
                + ["--host", host, cls],
                env_locust,
                OUT / f"sat-{cls}",
            )
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
        facts, loadavg_after, versions, mixed, sat, before, after, counts, saved, migrate_s
    )
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
        f"gunicorn: {WORKERS} sync workers; locust on the same machine. Scorekeepers' "
        f"think time: {os.environ.get('LOAD_SCOREKEEPER_WAIT', '3,8')} s.",
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


if __name__ == "__main__":
    main()
