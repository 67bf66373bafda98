# write_zvm (plugin/wzvm.mk) is kept in its own file; the zvm read plugin's rules live here.
include plugin/wzvm.mk
