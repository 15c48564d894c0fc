"""The VEKN API client against a local fake VEKN (pytest-httpserver), built from the
request and answer shapes the VEKN uses (events/vekn_client.py; docs/vekn-link.md)."""

import time

import pytest
from werkzeug import Response

from events import vekn_client
from events.vekn_client import Client, VeknDisabled, VeknRefused, VeknUnavailable


@pytest.fixture(autouse=True)
def fresh_token():
    vekn_client.forget_token()
    yield
    vekn_client.forget_token()


@pytest.fixture
def vekn(httpserver, settings):
    settings.VEKN_API_URL = httpserver.url_for("/").rstrip("/")
    settings.VEKN_API_USERNAME = "prince"
    settings.VEKN_API_PASSWORD = "secret"
    settings.VEKN_TIMEOUT_SECONDS = 1
    return httpserver


def login(server, token="tok-1"):
    server.expect_ordered_request(
        "/api/vekn/login", method="POST", data="username=prince&password=secret"
    ).respond_with_json({"data": {"code": 200, "auth": token}})


def test_disabled_link_says_so(settings):
    settings.VEKN_API_URL = ""
    assert not vekn_client.enabled()
    with pytest.raises(VeknDisabled, match="disabled"):
        Client()


def test_registry_reads_members_with_the_token(vekn):
    login(vekn)
    vekn.expect_ordered_request(
        "/api/vekn/registry",
        query_string="filter=5600123",
        headers={"Authorization": "Bearer tok-1"},
    ).respond_with_json(
        {
            "data": {
                "players": [
                    {
                        "veknid": "5600123",
                        "firstname": "Ana",
                        "lastname": "Pérez",
                        "countryname": "Chile",
                        "countrycode": "CL",
                        "city": "Santiago",
                    }
                ]
            }
        }
    )
    with Client() as client:
        member = client.member("5600123")
    assert member == vekn_client.Member("5600123", "Ana", "Pérez", "Chile", "Santiago")
    vekn.check_assertions()


def test_an_expired_token_signs_in_again_once(vekn):
    login(vekn, "old")
    vekn.expect_ordered_request(
        "/api/vekn/registry", headers={"Authorization": "Bearer old"}
    ).respond_with_json({"message": "Expired token"}, status=401)
    login(vekn, "new")
    vekn.expect_ordered_request(
        "/api/vekn/registry", headers={"Authorization": "Bearer new"}
    ).respond_with_json({"data": {"players": []}})
    with Client() as client:
        assert client.registry("56") == []
        # The new token is cached: no third sign-in for the next request.
        vekn.expect_ordered_request(
            "/api/vekn/registry", headers={"Authorization": "Bearer new"}
        ).respond_with_json({"data": {"players": []}})
        assert client.registry("57") == []
    vekn.check_assertions()


def test_a_not_authorized_answer_also_counts_as_expired(vekn):
    login(vekn, "old")
    vekn.expect_ordered_request("/api/vekn/registry").respond_with_json(
        {"data": {"code": 401, "message": "PLG_API_VEKN_REGISTRY_NOT_AUTHORIZED_MESSAGE"}}
    )
    login(vekn, "new")
    vekn.expect_ordered_request(
        "/api/vekn/registry", headers={"Authorization": "Bearer new"}
    ).respond_with_json({"data": {"players": []}})
    with Client() as client:
        assert client.registry("56") == []


def test_a_500_is_unavailable_with_the_vekns_message(vekn):
    login(vekn)
    vekn.expect_ordered_request("/api/vekn/event", method="POST").respond_with_json(
        {"data": {"code": 500, "message": "Database down"}}, status=500
    )
    with Client() as client, pytest.raises(VeknUnavailable, match="Database down"):
        client.create_event({"name": "X"}, "5600001")


def test_a_refusal_carries_the_vekns_message(vekn):
    login(vekn)
    vekn.expect_ordered_request(
        "/api/vekn/event", method="POST", headers={"Vekn-Id": "5600001"}
    ).respond_with_json({"data": {"code": 400, "message": "PLG_API_VEKN_INVALID_VENUE_MESSAGE"}})
    with Client() as client, pytest.raises(VeknRefused, match="Invalid venue"):
        client.create_event({"name": "X"}, "5600001")


def test_a_timeout_is_unavailable(vekn):
    login(vekn)

    def slow(request):
        time.sleep(1.5)
        return Response("{}", content_type="application/json")

    vekn.expect_ordered_request("/api/vekn/registry").respond_with_handler(slow)
    with Client() as client, pytest.raises(VeknUnavailable, match="in time"):
        client.registry("56")


def test_a_wrong_password_is_refused(vekn):
    vekn.expect_ordered_request("/api/vekn/login", method="POST").respond_with_json(
        {"data": {"code": 401, "message": "PLG_API_VEKN_LOGIN_INVALID_PASSWORD_MESSAGE"}}
    )
    with Client() as client, pytest.raises(VeknRefused, match="Invalid password"):
        client.registry("56")


def test_results_post_the_archondata(vekn):
    login(vekn)
    vekn.expect_ordered_request(
        "/api/vekn/archon/9001", method="POST", data="archondata=2%C2%A4"
    ).respond_with_json({"data": {"code": 200}})
    with Client() as client:
        client.send_results("9001", "2¤")
    vekn.check_assertions()


def test_registry_walk_narrows_a_full_batch():
    class Fake:
        def __init__(self):
            self.asked = []

        def registry(self, prefix):
            self.asked.append(prefix)
            if prefix == "56":
                return [vekn_client.Member(f"56000{i:02d}", "A", "B") for i in range(100)]
            return [vekn_client.Member(prefix + "0" * (7 - len(prefix)), "A", "B")]

    fake = Fake()
    batches = list(vekn_client.walk_registry(fake, "56", stop="56"))
    # 5600099 ends the batch: 56000 is read whole, go on at 56001.
    assert fake.asked[:3] == ["56", "56001", "56002"]
    assert all(p.startswith("56") for p in fake.asked)
    assert len(batches) == len(fake.asked)
