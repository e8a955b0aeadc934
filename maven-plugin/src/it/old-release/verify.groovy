// The failure names the release and where it is set, says how to fix it, has no stack trace, and nothing was generated.
def full = new File(basedir, 'build.log').text
def hook = full.indexOf('Running post-build script')
def log = hook < 0 ? full : full.substring(0, hook)

assert log.contains('prmkit:generate: the generated accessors need Java 22 or newer (java.lang.foreign), but this project compiles for Java 17 (maven.compiler.release); set maven.compiler.release to 22 or higher')
assert !log.contains('COMPILATION ERROR') : 'javac ran on generated files'
assert !(log =~ /(?m)^\s*at [a-z][\w.$]*\(/) : 'stack trace in the log'
assert !new File(basedir, 'target/generated-sources/prm').exists()
return true
