/** Projects the admin added and their workspaces, persisted in the broker's store. Entry point: {@link dev.lomicontrol.projects.Projects}. */
@NullMarked
package dev.lomicontrol.projects;

import org.jspecify.annotations.NullMarked;
