/**
 * The settings tools' broker handlers over the {@code settings} module.
 */
@NullMarked
package dev.lomicontrol.settings.tools;

import org.jspecify.annotations.NullMarked;
