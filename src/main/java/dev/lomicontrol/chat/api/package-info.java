/**
 * The chat tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.chat.api;

import org.jspecify.annotations.NullMarked;
