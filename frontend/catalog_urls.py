"""Card catalog page routes, included from ``frontend.urls`` under ``catalogs/``."""

from django.urls import path

from frontend.views import catalogs as views

urlpatterns = [
    path("", views.catalog_list, name="catalog-list"),
    path("new/", views.catalog_new, name="catalog-new"),
    path("import/", views.catalog_import, name="catalog-import"),
    path("<int:catalog_id>/", views.catalog_edit, name="catalog-edit"),
    path("<int:catalog_id>/export.json", views.catalog_export, name="catalog-export"),
    path("<int:catalog_id>/delete/", views.catalog_delete, name="catalog-delete"),
]
