/**
 * The workspace, project and panel (layout) tools' broker handlers over the {@code projects} module.
 */
@NullMarked
package dev.lomicontrol.layout.tools;

import org.jspecify.annotations.NullMarked;
