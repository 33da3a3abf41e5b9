"""Django's admin, with the site of ``common.admin_site`` (its login rate-limited) as the default."""

from django.contrib.admin.apps import AdminConfig as DjangoAdminConfig


class AdminConfig(DjangoAdminConfig):
    default_site = "common.admin_site.AdminSite"
