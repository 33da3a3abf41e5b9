from rest_framework.pagination import PageNumberPagination


class PagePagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


class LongPagePagination(PageNumberPagination):
    """For move logs: one page usually holds a whole game."""

    page_size = 500
    page_size_query_param = "page_size"
    max_page_size = 1000
