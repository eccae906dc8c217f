/**
 * The chat tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.tools.chat;

import org.jspecify.annotations.NullMarked;
