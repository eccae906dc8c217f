/**
 * The {@code lomi_chat_*} tools' broker handlers over the durable conversations of the {@code chat} module.
 */
@NullMarked
package dev.lomicontrol.chat.tools;

import org.jspecify.annotations.NullMarked;
