/** Plug-in points of Hourglass: implement these to change how the client behaves. */
package dev.hourglass.spi;
