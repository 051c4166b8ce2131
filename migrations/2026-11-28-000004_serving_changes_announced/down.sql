DROP TRIGGER template_apps_announce_change ON template_apps;
DROP TRIGGER template_versions_announce_change ON template_versions;
DROP TRIGGER templates_announce_change ON templates;
DROP FUNCTION clickwrap_announce_template_change();
DROP TRIGGER apps_announce_change ON apps;
DROP FUNCTION clickwrap_announce_app_change();
