/**
 * The session tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.session.api;

import org.jspecify.annotations.NullMarked;
