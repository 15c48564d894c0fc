"""League URLs: the match page, the players' reports, excuses and concessions, the staff
decisions on reports (joined into the ``leagues`` namespace by leagues/urls.py)."""

from django.urls import path

from leagues import views_match as v
from leagues import views_scheduling as vs

M = "competitions/<slug:slug>/matches/<str:code>/"
urlpatterns = [
    path(M, v.match_page, name="match"),
    path(M + "report/", v.report, name="match-report"),
    path(M + "reports/<int:pk>/confirm/", v.report_confirm, name="report-confirm"),
    path(M + "reports/<int:pk>/dispute/", v.report_dispute, name="report-dispute"),
    path(M + "reports/<int:pk>/withdraw/", v.report_withdraw, name="report-withdraw"),
    path(M + "reports/<int:pk>/resolve/", v.report_resolve, name="report-resolve"),
    path(M + "reports/<int:pk>/screenshot", v.report_screenshot, name="report-screenshot"),
    path(M + "correct/", v.correct, name="match-correct"),
    path(M + "excuse/", v.excuse_request, name="match-excuse"),
    path(M + "excuse/answer/", v.excuse_answer, name="excuse-answer"),
    path(M + "excuse/decide/", v.excuse_decide, name="excuse-decide"),
    path(M + "excuse/evidence", v.excuse_evidence, name="excuse-evidence"),
    path(M + "concede/", v.concede, name="match-concede"),
    path(M + "schedule/propose/", vs.propose, name="schedule-propose"),
    path(M + "schedule/<int:pk>/accept/", vs.accept, name="schedule-accept"),
]
