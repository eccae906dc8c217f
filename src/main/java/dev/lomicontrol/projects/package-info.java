/** Projects the admin added and their workspaces, persisted in the broker's store. Entry point: {@link dev.lomicontrol.projects.Projects}. */
package dev.lomicontrol.projects;
