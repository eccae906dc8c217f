package dev.lomicontrol.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The exact change an update would make to one section, computed by {@link Settings#plan} and shown
 * to the admin before anything is applied: the whole section {@code before} and {@code after}, valid
 * only while the section is still at {@code expectedSettingsRevision}.
 */
public record SettingsPlan(String section, String expectedSettingsRevision, JsonNode before, JsonNode after) {

    public SettingsPlan {
        before = before.deepCopy();
        after = after.deepCopy();
    }

    @Override
    public JsonNode before() {
        return before.deepCopy();
    }

    @Override
    public JsonNode after() {
        return after.deepCopy();
    }

    /** The fields whose value differs between {@link #before()} and {@link #after()}, in the section's order. */
    public List<String> changedFields() {
        List<String> changed = new ArrayList<>();
        for (Map.Entry<String, JsonNode> field : after.properties()) {
            if (!field.getValue().equals(before.get(field.getKey()))) {
                changed.add(field.getKey());
            }
        }
        return changed;
    }
}
