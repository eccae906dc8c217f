/**
 * The workspace, project and panel tools' broker handlers over the {@code projects} module.
 */
@NullMarked
package dev.lomicontrol.projects.tools;

import org.jspecify.annotations.NullMarked;
