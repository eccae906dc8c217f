/**
 * The session tools' broker handlers ({@code lomi_connect}, {@code lomi_workspace_list}): the
 * workspaces a session reaches and its retry epoch.
 */
@NullMarked
package dev.lomicontrol.session.tools;

import org.jspecify.annotations.NullMarked;
