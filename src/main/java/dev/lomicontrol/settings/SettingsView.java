package dev.lomicontrol.settings;

import tools.jackson.databind.JsonNode;

/**
 * One section as agents see it: every field with its current value, and the compare-and-set token
 * {@code settingsRevision = "<section>:<n>"} that an update must name.
 */
public record SettingsView(String section, JsonNode values, String settingsRevision) {

    public SettingsView {
        values = values.deepCopy();
    }

    /** A copy of the values, so a caller cannot change this view. */
    @Override
    public JsonNode values() {
        return values.deepCopy();
    }
}
