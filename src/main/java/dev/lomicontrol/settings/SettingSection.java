package dev.lomicontrol.settings;

import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Version;
import org.springframework.data.relational.core.mapping.Table;

/**
 * One stored settings section (table {@code setting_section}), a Spring Data JDBC aggregate.
 * {@code revision} is its optimistic {@code @Version}: it is the {@code n} of
 * {@code settingsRevision "<section>:<n>"}, a save bumps it and a save of a stale copy is refused.
 * A section without a row is the shipped defaults at revision 1; its first change materialises that
 * row (revision 1) and saves over it (revision 2) in the same savepoint.
 *
 * @param value the section's full canonical JSON object
 * @param updatedAt epoch milliseconds of the last save
 */
@Table("setting_section")
record SettingSection(
        @Id String section, String value, @Version long revision, long updatedAt) {

    /** A section not stored yet: its shipped defaults, new to the repository (revision 0 → inserted as 1). */
    static SettingSection defaults(String section, long now) {
        return new SettingSection(section, SettingsSchema.canonical(SettingsSchema.defaults(section)), 0, now);
    }

    SettingSection changed(String canonicalValue, long now) {
        return new SettingSection(section, canonicalValue, revision, now);
    }
}
