"""The notifications' queue from the environment (config.env.env_tasks,
docs/notifications.md "Backends", docs/deploy.md "Notifications")."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_tasks


def test_the_database_queue_is_the_default(monkeypatch):
    monkeypatch.delenv("TASKS_BACKEND", raising=False)
    tasks, apps, queues = env_tasks()
    assert tasks["default"]["BACKEND"] == "django_tasks_db.DatabaseBackend"
    assert (apps, queues) == ([], {})


def test_rq_needs_a_redis_url_and_adds_its_apps(monkeypatch):
    monkeypatch.setenv("TASKS_BACKEND", "rq")
    monkeypatch.delenv("REDIS_URL", raising=False)
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        env_tasks()
    monkeypatch.setenv("REDIS_URL", "redis://10.0.0.5:6379/2")
    tasks, apps, queues = env_tasks()
    assert tasks["default"] == {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default"]}
    assert apps == ["django_rq", "django_tasks_rq"]
    assert queues == {"default": {"URL": "redis://10.0.0.5:6379/2"}}


def test_a_misspelt_backend_stops_start_up(monkeypatch):
    monkeypatch.setenv("TASKS_BACKEND", "celery")
    with pytest.raises(ImproperlyConfigured, match="TASKS_BACKEND"):
        env_tasks()
    monkeypatch.setenv("TASKS_BACKEND", "immediate")
    assert env_tasks()[0]["default"]["BACKEND"].endswith("ImmediateBackend")
