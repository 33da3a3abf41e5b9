"""An account's e-mail address (confirmed by a signed link) and the password reset by an e-mailed
link (Django's tokens) - docs/accounts.md, issue 26 items 3 and 4."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Profile
from tests import factories
from tests.support import assert_error

# Transactional: the mails go out once the request's transaction commits (transaction.on_commit).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

NEW = "Chilkoot-Pass-1897"


def _link(message, kind: str) -> str:
    match = re.search(rf"https?://testserver(/account/{kind}/\S+)", message.body)
    assert match, message.body
    return match.group(1)


def _confirm(link: str):
    """Open a mailed link's page (a confirmation's, an undo's) and press its one button (a POST
    with the CSRF token), as its recipient does."""
    browser = APIClient(enforce_csrf_checks=True)
    opened = browser.get(link)
    if opened.status_code != 200:
        return opened
    return browser.post(link, {"csrfmiddlewaretoken": browser.cookies["csrftoken"].value}, format="multipart")


def _confirmed(account, email: str, mailoutbox) -> None:
    client = factories.token_client(account)
    assert client.put("/api/v1/auth/email", {"email": email, "password": factories.PASSWORD}).status_code == 202
    assert _confirm(_link(mailoutbox[-1], "email")).status_code == 200


def _browser(account) -> APIClient:
    client = APIClient()
    login = {"username": account.username, "password": factories.PASSWORD}
    assert client.post("/api/v1/auth/login", login).status_code == 200
    return client


# -- the address -----------------------------------------------------------------------------------


def test_an_address_given_at_sign_up_is_confirmed_by_the_link_mailed_to_it(guest, mailoutbox):
    response = guest.post(
        "/api/v1/auth/register", {"username": "lena", "password": "Klondike-1896", "email": "Lena@Example.ORG"}
    )

    assert response.status_code == 201
    me = guest.get("/api/v1/auth/me").json()
    assert (me["email"], me["email_confirmed"], me["email_pending"]) == ("Lena@example.org", False, "Lena@example.org")
    [message] = mailoutbox
    assert message.to == ["Lena@example.org"]
    assert "Bestätige" in message.subject  # the language of the sign-up (German by default)
    assert message.alternatives and message.alternatives[0][1] == "text/html"
    page = _confirm(_link(message, "email"))
    assert page.status_code == 200 and "Lena@example.org" in page.content.decode()
    me = guest.get("/api/v1/auth/me").json()
    assert (me["email"], me["email_confirmed"], me["email_pending"]) == ("Lena@example.org", True, None)


def test_a_new_address_replaces_the_confirmed_one_only_once_confirmed(account, player, mailoutbox):
    _confirmed(account, "old@example.org", mailoutbox)

    assert (
        player.put("/api/v1/auth/email", {"email": "new@example.org", "password": factories.PASSWORD}).status_code
        == 202
    )

    me = player.get("/api/v1/auth/me").json()
    assert (me["email"], me["email_confirmed"], me["email_pending"]) == ("old@example.org", True, "new@example.org")
    assert _confirm(_link(mailoutbox[-1], "email")).status_code == 200
    me = player.get("/api/v1/auth/me").json()
    assert (me["email"], me["email_pending"]) == ("new@example.org", None)


def test_a_confirmation_link_expires_and_an_old_one_stops_working(account, player, mailoutbox, settings):
    player.put("/api/v1/auth/email", {"email": "first@example.org", "password": factories.PASSWORD})
    first = _link(mailoutbox[-1], "email")
    player.put("/api/v1/auth/email", {"email": "second@example.org", "password": factories.PASSWORD})
    second = _link(mailoutbox[-1], "email")

    assert _confirm(first).status_code == 400  # replaced by the second address
    with time_machine.travel(timezone.now() + timedelta(seconds=settings.EMAIL_CONFIRM_TIMEOUT + 60)):
        expired = APIClient().get(second, HTTP_ACCEPT_LANGUAGE="en")
    assert expired.status_code == 400 and "expired" in expired.content.decode()
    assert APIClient().get(second[:-3] + "abc").status_code == 400  # forged
    assert player.get("/api/v1/auth/me").json()["email_confirmed"] is False


def test_an_address_is_confirmed_for_one_account_only_whatever_its_case(account, player, mailoutbox):
    other = factories.user()
    _confirmed(other, "Shared@example.org", mailoutbox)

    answer = player.put("/api/v1/auth/email", {"email": "shared@EXAMPLE.org", "password": factories.PASSWORD})

    assert answer.status_code == 202  # the answer tells nobody that an account has it
    page = _confirm(_link(mailoutbox[-1], "email"))
    assert page.status_code == 400 and "gehört schon zu einem anderen Konto" in page.content.decode()
    assert get_user_model().objects.get(pk=account.pk).email == ""


@pytest.mark.parametrize("email", ["no-at-sign", "a@", "two@@example.org", "x" * 250 + "@a.de"])
def test_a_bad_address_is_refused(player, email):
    response = player.put("/api/v1/auth/email", {"email": email, "password": factories.PASSWORD})

    assert response.status_code == 400 and response.json()["error"] in {"bad_email", "bad_request"}


def test_the_address_can_be_removed(account, player, mailoutbox):
    _confirmed(account, "lena@example.org", mailoutbox)

    assert player.delete("/api/v1/auth/email", {"password": factories.PASSWORD}).status_code == 204

    me = player.get("/api/v1/auth/me").json()
    assert (me["email"], me["email_confirmed"]) == (None, False)


# -- the password reset ----------------------------------------------------------------------------


def _reset(client: APIClient, email: str, **headers: str):
    return client.post("/api/v1/auth/password-reset", {"email": email}, **headers)


def _set_password(link: str, password: str = NEW) -> tuple[APIClient, object]:
    """Open the mailed link and set ``password`` as a browser does: Django's view moves the token
    into the session and shows the form at .../set-password."""
    browser = APIClient()
    opened = browser.get(link)
    assert opened.status_code == 302, opened.status_code
    form_url = opened["Location"]
    answer = browser.post(form_url, {"new_password1": password, "new_password2": password}, format="multipart")
    return browser, answer


def test_a_known_and_an_unknown_address_get_the_same_answer(account, mailoutbox):
    _confirmed(account, "lena@example.org", mailoutbox)
    mailoutbox.clear()

    known = _reset(APIClient(), "LENA@example.org")
    unknown = _reset(APIClient(), "nobody@example.org")

    assert known.status_code == unknown.status_code == 202
    assert known.json() == unknown.json()
    assert [message.to for message in mailoutbox] == [["lena@example.org"]]


def test_an_unconfirmed_address_gets_no_reset_mail(guest, mailoutbox):
    guest.post("/api/v1/auth/register", {"username": "lena", "password": "Klondike-1896", "email": "lena@example.org"})
    mailoutbox.clear()

    assert _reset(APIClient(), "lena@example.org").status_code == 202

    assert mailoutbox == []


def test_the_mailed_link_sets_a_new_password_logs_in_and_ends_the_other_sessions(account, mailoutbox):
    Profile.objects.filter(user=account).update(language="en")
    _confirmed(account, "lena@example.org", mailoutbox)
    elsewhere = _browser(account)
    bot = factories.token_client(account)

    _reset(APIClient(), "lena@example.org")
    message = mailoutbox[-1]
    assert message.subject == "Set a new password for Yukon Solitaire"  # the account's language
    html = message.alternatives[0][0]
    link = _link(message, "reset")
    assert link in html
    browser, answer = _set_password(link)

    assert answer.status_code == 302 and answer["Location"] == "/account?password=reset"
    assert browser.get("/api/v1/auth/me").json()["username"] == account.username
    assert elsewhere.get("/api/v1/auth/me").json()["authenticated"] is False
    assert bot.get("/api/v1/auth/me").status_code == 401
    assert APIClient().post("/api/v1/auth/login", {"username": account.username, "password": NEW}).status_code == 200
    again = APIClient().get(link, follow=True)
    assert 'id="reset-invalid"' in again.content.decode()  # one use


def test_a_reset_link_is_void_after_a_day_and_after_a_password_change(account, mailoutbox, settings):
    _confirmed(account, "lena@example.org", mailoutbox)
    _reset(APIClient(), "lena@example.org")
    link = _link(mailoutbox[-1], "reset")

    with time_machine.travel(timezone.now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT + 60)):
        assert 'id="reset-invalid"' in APIClient().get(link, follow=True).content.decode()
    factories.token_client(account).post(
        "/api/v1/auth/password", {"old_password": factories.PASSWORD, "new_password": NEW}
    )
    assert 'id="reset-invalid"' in APIClient().get(link, follow=True).content.decode()


def test_a_weak_new_password_is_refused_on_the_reset_page(account, mailoutbox):
    _confirmed(account, "lena@example.org", mailoutbox)
    _reset(APIClient(), "lena@example.org")

    _, answer = _set_password(_link(mailoutbox[-1], "reset"), "12345678")

    assert answer.status_code == 200 and "field-error" in answer.content.decode()
    account.refresh_from_db()
    assert account.check_password(factories.PASSWORD)


def test_reset_mails_are_limited_per_address_whether_it_has_an_account_or_not(account, mailoutbox, settings):
    _confirmed(account, "lena@example.org", mailoutbox)
    limit = int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["mail"].split("/")[0])

    # (lena's inbox had its confirmation mail already: one mail fewer left for it this hour)
    for email, left in (("lena@example.org", limit - 1), ("nobody@example.org", limit)):
        answers = [_reset(APIClient(REMOTE_ADDR=f"10.9.{n}.1"), email).status_code for n in range(left + 1)]
        assert answers == [202] * left + [429], email
    assert _reset(APIClient(REMOTE_ADDR="10.9.99.1"), "other@example.org").status_code == 202


def test_a_bad_address_for_a_reset_is_refused(guest):
    assert_error(_reset(guest, "not an address"), 400, "bad_email")


@pytest.mark.parametrize(("hours", "works"), [(23, True), (25, False)])
def test_a_reset_link_works_for_one_day(account, mailoutbox, hours, works):
    _confirmed(account, "lena@example.org", mailoutbox)
    _reset(APIClient(), "lena@example.org")
    link = _link(mailoutbox[-1], "reset")
    with time_machine.travel(timezone.now() + timedelta(hours=hours)):
        page = APIClient().get(link, follow=True).content.decode()
    assert ('id="reset-invalid"' not in page) is works


@pytest.mark.parametrize(("hours", "works"), [(71, True), (73, False)])
def test_a_confirmation_link_works_for_three_days(account, player, mailoutbox, hours, works):
    player.put("/api/v1/auth/email", {"email": "late@example.org", "password": factories.PASSWORD})
    link = _link(mailoutbox[-1], "email")
    with time_machine.travel(timezone.now() + timedelta(hours=hours)):
        status = _confirm(link).status_code
    assert (status == 200) is works
    assert player.get("/api/v1/auth/me").json()["email_confirmed"] is works


def test_the_links_in_mails_are_the_sites_own_whatever_host_the_request_named(account, mailoutbox, settings):
    """Found by an outside audit: ``Host: localhost:9999`` through the edge put port 9999 into the
    link mailed to the victim. The links come from SITE_URL alone."""
    settings.SITE_URL = "https://yukon.example.com"
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "localhost"]
    client = factories.token_client(account)
    assert (
        client.put(
            "/api/v1/auth/email",
            {"email": "lena@example.org", "password": factories.PASSWORD},
            HTTP_HOST="localhost:9999",
        ).status_code
        == 202
    )
    confirm = mailoutbox[-1].body
    assert "https://yukon.example.com/account/email/" in confirm and "9999" not in confirm
    assert "yukon.example.com" in mailoutbox[-1].alternatives[0][0]
    _confirm(re.search(r"https://yukon\.example\.com(/account/email/\S+)", confirm).group(1))
    APIClient().post("/api/v1/auth/password-reset", {"email": "lena@example.org"}, HTTP_HOST="localhost:9999")
    reset = mailoutbox[-1].body
    assert "https://yukon.example.com/account/reset/" in reset and "9999" not in reset


def test_manage_py_check_warns_when_the_site_url_is_missing(settings):
    from common.checks import site_url_check

    settings.SITE_URL = ""
    assert [warning.id for warning in site_url_check()] == ["yukon.W001"]
    settings.SITE_URL = "https://yukon.example.com"
    assert site_url_check() == []


def test_opening_a_confirmation_link_changes_nothing_until_its_button_is_pressed(account, player, mailoutbox):
    """Found by an outside audit: a mail scanner that follows links confirmed an address for
    whoever typed it (squatting a stranger's address). The link's page asks; its POST confirms."""
    player.put("/api/v1/auth/email", {"email": "someone@example.org", "password": factories.PASSWORD})
    link = _link(mailoutbox[-1], "email")
    scanner = APIClient(enforce_csrf_checks=True)
    page = scanner.get(link)
    assert page.status_code == 200 and 'id="confirm-form"' in page.content.decode()
    assert "someone@example.org" in page.content.decode()
    assert scanner.head(link).status_code == 200
    assert player.get("/api/v1/auth/me").json()["email_confirmed"] is False
    assert APIClient(enforce_csrf_checks=True).post(link).status_code == 403  # no CSRF token: refused
    assert player.get("/api/v1/auth/me").json()["email_confirmed"] is False

    done = scanner.post(link, {"csrfmiddlewaretoken": scanner.cookies["csrftoken"].value}, format="multipart")
    assert done.status_code == 200 and 'id="confirm-result"' in done.content.decode()
    assert player.get("/api/v1/auth/me").json()["email_confirmed"] is True


def test_one_inbox_gets_a_few_mails_an_hour_whoever_asks_and_never_a_chosen_name(mailoutbox, settings):
    """Found by an outside audit: three accounts sent 15 confirmation mails to one stranger's
    address in a minute, each greeting the stranger with the account's name (a name like
    claim-your-prize.evil.example is a link in a mail client). Mails to one address (NFKC and
    case folded, as the reset mails) count together, whoever asks; an unconfirmed address is
    greeted by no chosen name."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**rates, "mail": "3/hour"}}
    senders = [factories.user(username=name) for name in ("claim-your-prize.evil.example", "second", "third")]
    answers = [
        factories.token_client(sender)
        .put("/api/v1/auth/email", {"email": address, "password": factories.PASSWORD})
        .status_code
        for sender, address in zip(
            senders, ["victim@example.org", "VICTIM@example.org", "victim@example.org"], strict=True
        )
    ]
    assert answers == [202, 202, 202]
    assert (
        factories.token_client(senders[0])
        .put("/api/v1/auth/email", {"email": "Victim@Example.org", "password": factories.PASSWORD})
        .status_code
        == 429
    )
    reset = APIClient().post("/api/v1/auth/password-reset", {"email": "victim@example.org"})
    assert reset.status_code == 429  # the reset mails count in the same limit of that inbox
    assert len(mailoutbox) == 3
    for message in mailoutbox:
        text = message.body + message.alternatives[0][0] + message.subject
        assert not any(name in text for name in ("claim-your-prize", "second", "third")), text


def test_changing_or_removing_the_address_asks_the_password(account, player, mailoutbox):
    """Found by an outside audit: a session alone (a shared computer, a stolen cookie) changed the
    address, confirmed it and had the reset mail sent to the thief."""
    _confirmed(account, "owner@example.org", mailoutbox)
    sent = len(mailoutbox)
    assert_error(player.put("/api/v1/auth/email", {"email": "thief@example.org"}), 400, "bad_request")
    assert_error(
        player.put("/api/v1/auth/email", {"email": "thief@example.org", "password": "a-guess"}), 400, "wrong_password"
    )
    assert_error(player.delete("/api/v1/auth/email"), 400, "bad_request")
    assert_error(player.delete("/api/v1/auth/email", {"password": "a-guess"}), 400, "wrong_password")
    me = player.get("/api/v1/auth/me").json()
    assert (me["email"], me["email_confirmed"], me["email_pending"]) == ("owner@example.org", True, None)
    assert len(mailoutbox) == sent  # no mail went anywhere


def _undo_link(message) -> str:
    match = re.search(r"https?://testserver(/account/email-undo/\S+)", message.body)
    assert match, message.body
    return match.group(1)


def test_the_address_before_is_told_of_a_change_and_can_undo_it_signing_everyone_out(account, mailoutbox):
    _confirmed(account, "owner@example.org", mailoutbox)
    thief = factories.token_client(account)  # someone who has the password too
    owner_browser = _browser(account)
    thief.put("/api/v1/auth/email", {"email": "thief@example.org", "password": factories.PASSWORD})
    assert _confirm(_link(mailoutbox[-1], "email")).status_code == 200

    told = mailoutbox[-1]
    assert told.to == ["owner@example.org"] and "thief@example.org" in told.body
    assert "geändert" in told.subject and account.username in told.body  # (the address was confirmed)
    link = _undo_link(told)
    opened = APIClient().get(link)  # opening it changes nothing
    assert opened.status_code == 200 and 'id="undo-form"' in opened.content.decode()
    assert get_user_model().objects.get(pk=account.pk).email == "thief@example.org"

    with time_machine.travel(timezone.now() + timedelta(days=6)):
        done = _confirm(link)
    assert done.status_code == 200 and 'id="undo-result"' in done.content.decode()
    assert get_user_model().objects.get(pk=account.pk).email == "owner@example.org"
    assert thief.get("/api/v1/auth/me").status_code == 401  # every token ends
    assert owner_browser.get("/api/v1/auth/me").json()["authenticated"] is False  # and every session
    reset = APIClient().post("/api/v1/auth/password-reset", {"email": "owner@example.org"})
    assert reset.status_code == 202 and mailoutbox[-1].to == ["owner@example.org"]


def test_a_removed_address_is_told_and_the_undo_link_lasts_a_week(account, player, mailoutbox):
    _confirmed(account, "owner@example.org", mailoutbox)
    assert player.delete("/api/v1/auth/email", {"password": factories.PASSWORD}).status_code == 204
    told = mailoutbox[-1]
    assert told.to == ["owner@example.org"] and "entfernt" in told.subject
    link = _undo_link(told)
    with time_machine.travel(timezone.now() + timedelta(days=8)):
        late = _confirm(link)
    assert late.status_code == 400
    assert get_user_model().objects.get(pk=account.pk).email == ""
