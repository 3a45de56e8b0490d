/* fault.h: placeholder until the fault-injection build lands. */
#ifndef SRV_FAULT_H
#define SRV_FAULT_H
static inline int fault_init(void) { return 0; }
static inline int fault_hit(const char *point) { (void)point; return 0; }
#endif
