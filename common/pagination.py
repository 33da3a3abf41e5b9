from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request


class _Pagination(PageNumberPagination):
    page_size_query_param = "page_size"

    def get_page_size(self, request: Request) -> Any:
        """As DRF's (0 or less: the default; above the maximum: the maximum), but a page size that
        is not a number is refused (400) instead of silently ignored: the client made a mistake."""
        raw = request.query_params.get(self.page_size_query_param)
        if raw is not None:
            try:
                int(raw)
            except ValueError:
                raise ValidationError({self.page_size_query_param: [_("A valid integer is required.")]}) from None
        return super().get_page_size(request)

    def get_page_number(self, request: Request, paginator: Any) -> Any:
        """As DRF's, but an empty page number is refused as not a number (404, as ``page=abc``)
        instead of being taken for page 1."""
        if request.query_params.get(self.page_query_param) == "":
            return ""
        return super().get_page_number(request, paginator)


class PagePagination(_Pagination):
    page_size = 20
    max_page_size = 100


class LongPagePagination(_Pagination):
    """For move logs: one page usually holds a whole game."""

    page_size = 500
    max_page_size = 1000
