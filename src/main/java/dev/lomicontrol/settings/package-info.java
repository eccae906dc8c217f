/**
 * The broker's user settings (SPEC §10 Settings): the editable {@code editor} and {@code terminal}
 * sections, persisted in the store and changed only by compare-and-set on their
 * {@code settingsRevision}, plus the read-only {@code agentControl} view. Entry point:
 * {@link dev.lomicontrol.settings.Settings}.
 */
@NullMarked
package dev.lomicontrol.settings;

import org.jspecify.annotations.NullMarked;
