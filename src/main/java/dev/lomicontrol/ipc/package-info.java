/** The broker's private IPC messages (version 1) and the result envelope, shared by the broker and the MCP helper. */
@NullMarked
package dev.lomicontrol.ipc;

import org.jspecify.annotations.NullMarked;
