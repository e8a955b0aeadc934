/*
 * prmkit VFIO stand-in: takes the place of the kernel's VFIO and sysfs for ONE fake PCI function,
 * so that a VFIO user (prmkit's VFIO back end, rdma-core's mlx5_vfio) runs its real system-call
 * code against a device model in the same process (soft-hca's io.prmkit.softhca.vfio.VfioStandIn).
 *
 * Use it either preloaded (LD_PRELOAD=libprmkit_vfio_standin.so: every open/ioctl/mmap/... of the
 * process passes through it) or as the library a VFIO user is pointed at. Calls about anything but
 * the fake function go on to the C library unchanged.
 *
 * What it serves (after prmkit_standin_configure):
 *   /sys/bus/pci/devices/<pci>/{vendor,device,class,driver,iommu_group}  from a tree under <root>
 *   /dev/vfio/vfio   container: GET_API_VERSION, CHECK_EXTENSION (type 1, 1v2), SET_IOMMU,
 *                    IOMMU_GET_INFO (4 KiB/2 MiB/1 GiB pages, no IOVA-range capability),
 *                    IOMMU_MAP_DMA / UNMAP_DMA (handed to the device model's IOMMU)
 *   /dev/vfio/<g>    group: GET_STATUS (viable), SET_CONTAINER, UNSET_CONTAINER, GET_DEVICE_FD
 *   device fd        GET_INFO (PCI, 9 regions, 5 irq indexes), GET_REGION_INFO (BAR 0: mmap of shared
 *                    memory the device model polls; config space: 4 KiB, pread/pwrite),
 *                    GET_IRQ_INFO (MSI-X: eventfds), SET_IRQS (eventfds per vector), RESET;
 *                    mmap of BAR 0, pread/pwrite of BAR 0 and config space.
 * Region offsets are index << 40, as vfio-pci's. Every VFIO call is traced to the trace hook.
 *
 * Build: gcc -shared -fPIC -O2 -o libprmkit_vfio_standin.so prmkit_vfio_standin.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define REGION_SHIFT 40
#define REGION_MASK ((1ULL << REGION_SHIFT) - 1)
#define MAX_FD 65536
#define CONFIG_SIZE 4096
#define MAX_VECTORS 2048

typedef int (*standin_map_fn)(uint64_t iova, uint64_t vaddr, uint64_t size);
typedef int (*standin_unmap_fn)(uint64_t iova, uint64_t size);
typedef void (*standin_trace_fn)(const char *line);

enum kind { K_NONE, K_CONTAINER, K_GROUP, K_DEVICE };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int configured;
static char root[512];
static char pci[64];
static char sys_prefix[128];   /* /sys/bus/pci/devices/<pci> */
static char group_path[64];    /* /dev/vfio/<group> */
static int group = -1;
static int deny;               /* open of the group: EACCES */
static uint64_t bar_size;
static int bar_fd = -1;
static void *bar;
static int vectors;
static int msix_fds[MAX_VECTORS];
static unsigned char config[CONFIG_SIZE];
static unsigned char kinds[MAX_FD];
static int container_has_group, iommu_set;
static standin_map_fn map_hook;
static standin_unmap_fn unmap_hook;
static standin_trace_fn trace_hook;

/* The C library's functions. */
#define REAL(name) static __typeof__(name) *real_##name; \
    static void resolve_##name(void) { if (!real_##name) real_##name = dlsym(RTLD_NEXT, #name); }
REAL(open) REAL(open64) REAL(openat) REAL(openat64) REAL(close) REAL(ioctl) REAL(mmap) REAL(mmap64)
REAL(pread) REAL(pread64) REAL(pwrite) REAL(pwrite64) REAL(readlink) REAL(stat) REAL(stat64) REAL(lstat)
REAL(lstat64) REAL(access)
static int (*real___xstat)(int, const char *, struct stat *);
static int (*real___lxstat)(int, const char *, struct stat *);
static int (*real_fstatat)(int, const char *, struct stat *, int);
static int (*real_fstatat64)(int, const char *, struct stat64 *, int);

static void trace(const char *fmt, ...) {
    if (!trace_hook) return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    trace_hook(line);
}

static enum kind kind_of(int fd) {
    return fd >= 0 && fd < MAX_FD ? (enum kind) kinds[fd] : K_NONE;
}

static void set_kind(int fd, enum kind k) {
    if (fd >= 0 && fd < MAX_FD) kinds[fd] = (unsigned char) k;
}

/* The fake function's paths, under <root>; anything else unchanged. */
static const char *rewrite(const char *path, char *buf, size_t n) {
    if (!configured || !path) return path;
    size_t l = strlen(sys_prefix);
    if ((strncmp(path, sys_prefix, l) == 0 && (path[l] == 0 || path[l] == '/'))
            || strcmp(path, "/dev/vfio/vfio") == 0 || strcmp(path, group_path) == 0) {
        snprintf(buf, n, "%s%s", root, path);
        return buf;
    }
    return path;
}

static int mkdirs(const char *path) {
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        mkdir(tmp, 0755);
        *p = '/';
    }
    return mkdir(tmp, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

static int write_file(const char *dir, const char *name, const char *text) {
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    resolve_open();
    resolve_close();
    int fd = real_open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return -1;
    ssize_t w = write(fd, text, strlen(text));
    real_close(fd);
    return w == (ssize_t) strlen(text) ? 0 : -1;
}

/*
 * Serves function <pci_name> (vendor:device) in IOMMU group <iommu_group> (-1: none), bound to
 * <driver> ("" or NULL: none), with <bar_bytes> of BAR 0 and <msix> MSI-X vectors; the sysfs and
 * /dev tree goes under <root_dir>. <deny_group>: opening /dev/vfio/<group> fails with EACCES.
 * Returns 0, or -1 with errno. Forgets an earlier configuration (its fds stop being served).
 */
int prmkit_standin_configure(const char *root_dir, const char *pci_name, int iommu_group, const char *driver,
                             unsigned vendor, unsigned device, uint64_t bar_bytes, int msix, int deny_group) {
    pthread_mutex_lock(&lock);
    configured = 0;
    memset(kinds, 0, sizeof kinds);
    container_has_group = iommu_set = 0;
    if (bar) munmap(bar, bar_size);
    if (bar_fd >= 0) { resolve_close(); real_close(bar_fd); }
    bar = NULL;
    bar_fd = -1;
    snprintf(root, sizeof root, "%s", root_dir);
    snprintf(pci, sizeof pci, "%s", pci_name);
    snprintf(sys_prefix, sizeof sys_prefix, "/sys/bus/pci/devices/%s", pci);
    group = iommu_group;
    snprintf(group_path, sizeof group_path, "/dev/vfio/%d", group);
    deny = deny_group;
    vectors = msix < 0 ? 0 : msix > MAX_VECTORS ? MAX_VECTORS : msix;
    for (int i = 0; i < MAX_VECTORS; i++) msix_fds[i] = -1;

    char dir[1024], text[64], target[256];
    snprintf(dir, sizeof dir, "%s%s", root, sys_prefix);
    if (mkdirs(dir)) goto fail;
    snprintf(text, sizeof text, "0x%04x\n", vendor);
    if (write_file(dir, "vendor", text)) goto fail;
    snprintf(text, sizeof text, "0x%04x\n", device);
    if (write_file(dir, "device", text)) goto fail;
    if (write_file(dir, "class", "0x020000\n")) goto fail;
    char link[1100];
    snprintf(link, sizeof link, "%s/driver", dir);
    unlink(link);
    if (driver && *driver) {
        snprintf(target, sizeof target, "../../../../bus/pci/drivers/%s", driver);
        if (symlink(target, link)) goto fail;
    }
    snprintf(link, sizeof link, "%s/iommu_group", dir);
    unlink(link);
    if (group >= 0) {
        snprintf(target, sizeof target, "../../../../kernel/iommu_groups/%d", group);
        if (symlink(target, link)) goto fail;
        snprintf(dir, sizeof dir, "%s/dev/vfio", root);
        if (mkdirs(dir)) goto fail;
        if (write_file(dir, "vfio", "")) goto fail;
        snprintf(text, sizeof text, "%d", group);
        if (write_file(dir, text, "")) goto fail;
    }

    bar_size = bar_bytes;
    bar_fd = memfd_create("prmkit-standin-bar0", MFD_CLOEXEC);
    if (bar_fd < 0 || ftruncate(bar_fd, (off_t) bar_size)) goto fail;
    resolve_mmap();
    bar = real_mmap(NULL, bar_size, PROT_READ | PROT_WRITE, MAP_SHARED, bar_fd, 0);
    if (bar == MAP_FAILED) { bar = NULL; goto fail; }

    memset(config, 0, sizeof config);
    config[0] = vendor & 0xff; config[1] = vendor >> 8;
    config[2] = device & 0xff; config[3] = device >> 8;
    config[8] = 0x00; config[9] = 0x00; config[10] = 0x00; config[11] = 0x02; /* class: Ethernet controller */
    config[0x0e] = 0x00; /* header type 0 */
    configured = 1;
    pthread_mutex_unlock(&lock);
    return 0;
fail:
    pthread_mutex_unlock(&lock);
    return -1;
}

/* BAR 0 as the device model sees it (shared with every mmap of the device fd). */
void *prmkit_standin_bar(void) { return bar; }
uint64_t prmkit_standin_bar_size(void) { return bar_size; }

/* The PCI command register as the user last wrote it (bus master: bit 2). */
unsigned prmkit_standin_pci_command(void) { return config[4] | config[5] << 8; }

void prmkit_standin_hooks(standin_map_fn map, standin_unmap_fn unmap, standin_trace_fn tr) {
    map_hook = map;
    unmap_hook = unmap;
    trace_hook = tr;
}

/* Signals MSI-X vector <v>: 1 when an eventfd took it, 0 when the user set none. */
int prmkit_standin_raise(int v) {
    if (v < 0 || v >= vectors) return 0;
    int fd = msix_fds[v];
    if (fd < 0) return 0;
    uint64_t one = 1;
    return write(fd, &one, sizeof one) == sizeof one;
}

/* ------------------------------------------------------------------ paths */

static int do_open(const char *path, int flags, mode_t mode, int at, int dirfd, int use64) {
    char buf[1024];
    const char *p = rewrite(path, buf, sizeof buf);
    enum kind k = K_NONE;
    if (p != path) {
        if (strcmp(path, "/dev/vfio/vfio") == 0) k = K_CONTAINER;
        else if (strcmp(path, group_path) == 0) {
            if (deny) {
                trace("open %s -> EACCES", path);
                errno = EACCES;
                return -1;
            }
            k = K_GROUP;
        }
    }
    int fd;
    if (at) {
        resolve_openat(); resolve_openat64();
        fd = use64 ? real_openat64(dirfd, p, flags, mode) : real_openat(dirfd, p, flags, mode);
    } else {
        resolve_open(); resolve_open64();
        fd = use64 ? real_open64(p, flags, mode) : real_open(p, flags, mode);
    }
    if (fd >= 0 && k != K_NONE) {
        set_kind(fd, k);
        trace("open %s -> fd %d (%s)", path, fd, k == K_CONTAINER ? "container" : "group");
    } else if (p != path) {
        trace("open %s -> %d", path, fd);
    }
    return fd;
}

static mode_t mode_arg(int flags, va_list ap) {
    return (flags & O_CREAT) || (flags & __O_TMPFILE) == __O_TMPFILE ? (mode_t) va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...) {
    va_list ap; va_start(ap, flags); mode_t m = mode_arg(flags, ap); va_end(ap);
    return do_open(path, flags, m, 0, 0, 0);
}
int open64(const char *path, int flags, ...) {
    va_list ap; va_start(ap, flags); mode_t m = mode_arg(flags, ap); va_end(ap);
    return do_open(path, flags, m, 0, 0, 1);
}
int openat(int dirfd, const char *path, int flags, ...) {
    va_list ap; va_start(ap, flags); mode_t m = mode_arg(flags, ap); va_end(ap);
    return do_open(path, flags, m, 1, dirfd, 0);
}
int openat64(int dirfd, const char *path, int flags, ...) {
    va_list ap; va_start(ap, flags); mode_t m = mode_arg(flags, ap); va_end(ap);
    return do_open(path, flags, m, 1, dirfd, 1);
}
int __open_2(const char *path, int flags) { return do_open(path, flags, 0, 0, 0, 0); }
int __open64_2(const char *path, int flags) { return do_open(path, flags, 0, 0, 0, 1); }

ssize_t readlink(const char *path, char *out, size_t n) {
    char buf[1024];
    resolve_readlink();
    const char *p = rewrite(path, buf, sizeof buf);
    ssize_t r = real_readlink(p, out, n);
    if (p != path) trace("readlink %s -> %zd", path, r);
    return r;
}
int stat(const char *path, struct stat *st) {
    char buf[1024]; resolve_stat();
    const char *p = rewrite(path, buf, sizeof buf);
    int r = real_stat(p, st);
    if (p != path) trace("stat %s -> %d", path, r);
    return r;
}
int stat64(const char *path, struct stat64 *st) {
    char buf[1024]; resolve_stat64();
    const char *p = rewrite(path, buf, sizeof buf);
    int r = real_stat64(p, st);
    if (p != path) trace("stat %s -> %d", path, r);
    return r;
}
int lstat(const char *path, struct stat *st) {
    char buf[1024]; resolve_lstat();
    return real_lstat(rewrite(path, buf, sizeof buf), st);
}
int lstat64(const char *path, struct stat64 *st) {
    char buf[1024]; resolve_lstat64();
    return real_lstat64(rewrite(path, buf, sizeof buf), st);
}
int __xstat(int ver, const char *path, struct stat *st) {
    char buf[1024];
    if (!real___xstat) real___xstat = dlsym(RTLD_NEXT, "__xstat");
    return real___xstat(ver, rewrite(path, buf, sizeof buf), st);
}
int __lxstat(int ver, const char *path, struct stat *st) {
    char buf[1024];
    if (!real___lxstat) real___lxstat = dlsym(RTLD_NEXT, "__lxstat");
    return real___lxstat(ver, rewrite(path, buf, sizeof buf), st);
}
int fstatat(int dirfd, const char *path, struct stat *st, int flags) {
    char buf[1024];
    if (!real_fstatat) real_fstatat = dlsym(RTLD_NEXT, "fstatat");
    return real_fstatat(dirfd, rewrite(path, buf, sizeof buf), st, flags);
}
int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags) {
    char buf[1024];
    if (!real_fstatat64) real_fstatat64 = dlsym(RTLD_NEXT, "fstatat64");
    return real_fstatat64(dirfd, rewrite(path, buf, sizeof buf), st, flags);
}
int access(const char *path, int mode) {
    char buf[1024]; resolve_access();
    return real_access(rewrite(path, buf, sizeof buf), mode);
}

int close(int fd) {
    resolve_close();
    enum kind k = kind_of(fd);
    if (k != K_NONE) {
        trace("close fd %d (%s)", fd, k == K_CONTAINER ? "container" : k == K_GROUP ? "group" : "device");
        set_kind(fd, K_NONE);
        if (k == K_DEVICE) {
            pthread_mutex_lock(&lock);
            for (int i = 0; i < MAX_VECTORS; i++) msix_fds[i] = -1;
            pthread_mutex_unlock(&lock);
        }
    }
    return real_close(fd);
}

/* ------------------------------------------------------------------ ioctls */

static int fail(int e) { errno = e; return -1; }

static int container_ioctl(int fd, unsigned long req, void *arg) {
    switch (req) {
    case VFIO_GET_API_VERSION:
        trace("ioctl container VFIO_GET_API_VERSION -> %d", VFIO_API_VERSION);
        return VFIO_API_VERSION;
    case VFIO_CHECK_EXTENSION: {
        long ext = (long) arg;
        int yes = ext == VFIO_TYPE1_IOMMU || ext == VFIO_TYPE1v2_IOMMU;
        trace("ioctl container VFIO_CHECK_EXTENSION %ld -> %d", ext, yes);
        return yes;
    }
    case VFIO_SET_IOMMU: {
        long t = (long) arg;
        trace("ioctl container VFIO_SET_IOMMU %ld", t);
        if (!container_has_group) return fail(EINVAL);
        if (t != VFIO_TYPE1_IOMMU && t != VFIO_TYPE1v2_IOMMU) return fail(ENODEV);
        iommu_set = 1;
        return 0;
    }
    case VFIO_IOMMU_GET_INFO: {
        struct vfio_iommu_type1_info *info = arg;
        if (!iommu_set) return fail(EINVAL);
        if (info->argsz < sizeof *info) return fail(EINVAL);
        info->flags = VFIO_IOMMU_INFO_PGSIZES;
        info->iova_pgsizes = (1ULL << 12) | (1ULL << 21) | (1ULL << 30);
        info->cap_offset = 0;
        trace("ioctl container VFIO_IOMMU_GET_INFO -> pgsizes 0x%llx", (unsigned long long) info->iova_pgsizes);
        return 0;
    }
    case VFIO_IOMMU_MAP_DMA: {
        struct vfio_iommu_type1_dma_map *m = arg;
        trace("ioctl container VFIO_IOMMU_MAP_DMA iova 0x%llx size 0x%llx", (unsigned long long) m->iova, (unsigned long long) m->size);
        if (!iommu_set) return fail(EINVAL);
        if (m->argsz < sizeof *m || (m->size & 0xfff) || (m->iova & 0xfff) || (m->vaddr & 0xfff) || m->size == 0) return fail(EINVAL);
        if (!map_hook) return fail(ENODEV);
        int r = map_hook(m->iova, m->vaddr, m->size);
        return r ? fail(r) : 0;
    }
    case VFIO_IOMMU_UNMAP_DMA: {
        struct vfio_iommu_type1_dma_unmap *u = arg;
        trace("ioctl container VFIO_IOMMU_UNMAP_DMA iova 0x%llx size 0x%llx", (unsigned long long) u->iova, (unsigned long long) u->size);
        if (!iommu_set) return fail(EINVAL);
        if (u->argsz < sizeof *u) return fail(EINVAL);
        if (unmap_hook) {
            int r = unmap_hook(u->iova, u->size);
            if (r) return fail(r);
        }
        return 0;
    }
    }
    trace("ioctl container 0x%lx -> ENOTTY", req);
    return fail(ENOTTY);
}

static int group_ioctl(int fd, unsigned long req, void *arg) {
    switch (req) {
    case VFIO_GROUP_GET_STATUS: {
        struct vfio_group_status *s = arg;
        if (s->argsz < sizeof *s) return fail(EINVAL);
        s->flags = VFIO_GROUP_FLAGS_VIABLE | (container_has_group ? VFIO_GROUP_FLAGS_CONTAINER_SET : 0);
        trace("ioctl group VFIO_GROUP_GET_STATUS -> flags 0x%x", s->flags);
        return 0;
    }
    case VFIO_GROUP_SET_CONTAINER: {
        int cfd = *(int *) arg;
        trace("ioctl group VFIO_GROUP_SET_CONTAINER fd %d", cfd);
        if (kind_of(cfd) != K_CONTAINER) return fail(EINVAL);
        if (container_has_group) return fail(EBUSY);
        container_has_group = 1;
        return 0;
    }
    case VFIO_GROUP_UNSET_CONTAINER:
        trace("ioctl group VFIO_GROUP_UNSET_CONTAINER");
        container_has_group = iommu_set = 0;
        return 0;
    case VFIO_GROUP_GET_DEVICE_FD: {
        const char *name = arg;
        if (!iommu_set) { trace("ioctl group VFIO_GROUP_GET_DEVICE_FD %s -> EINVAL (no IOMMU set)", name); return fail(EINVAL); }
        if (strcmp(name, pci) != 0) { trace("ioctl group VFIO_GROUP_GET_DEVICE_FD %s -> ENODEV", name); return fail(ENODEV); }
        int d = fcntl(bar_fd, F_DUPFD_CLOEXEC, 3);
        if (d < 0) return -1;
        set_kind(d, K_DEVICE);
        trace("ioctl group VFIO_GROUP_GET_DEVICE_FD %s -> fd %d", name, d);
        return d;
    }
    }
    trace("ioctl group 0x%lx -> ENOTTY", req);
    return fail(ENOTTY);
}

static int device_ioctl(int fd, unsigned long req, void *arg) {
    switch (req) {
    case VFIO_DEVICE_GET_INFO: {
        struct vfio_device_info *i = arg;
        if (i->argsz < 16) return fail(EINVAL);
        i->flags = VFIO_DEVICE_FLAGS_PCI | VFIO_DEVICE_FLAGS_RESET;
        i->num_regions = VFIO_PCI_NUM_REGIONS;
        i->num_irqs = VFIO_PCI_NUM_IRQS;
        if (i->argsz >= sizeof *i) i->cap_offset = 0;
        trace("ioctl device VFIO_DEVICE_GET_INFO -> flags 0x%x regions %u irqs %u", i->flags, i->num_regions, i->num_irqs);
        return 0;
    }
    case VFIO_DEVICE_GET_REGION_INFO: {
        struct vfio_region_info *r = arg;
        if (r->argsz < sizeof *r) return fail(EINVAL);
        if (r->index >= VFIO_PCI_NUM_REGIONS) return fail(EINVAL);
        r->offset = (uint64_t) r->index << REGION_SHIFT;
        r->cap_offset = 0;
        if (r->index == VFIO_PCI_BAR0_REGION_INDEX) {
            r->flags = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE | VFIO_REGION_INFO_FLAG_MMAP;
            r->size = bar_size;
        } else if (r->index == VFIO_PCI_CONFIG_REGION_INDEX) {
            r->flags = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE;
            r->size = CONFIG_SIZE;
        } else {
            r->flags = 0;
            r->size = 0;
        }
        trace("ioctl device VFIO_DEVICE_GET_REGION_INFO %u -> size 0x%llx flags 0x%x", r->index, (unsigned long long) r->size, r->flags);
        return 0;
    }
    case VFIO_DEVICE_GET_IRQ_INFO: {
        struct vfio_irq_info *i = arg;
        if (i->argsz < sizeof *i || i->index >= VFIO_PCI_NUM_IRQS) return fail(EINVAL);
        i->flags = i->index == VFIO_PCI_MSIX_IRQ_INDEX ? VFIO_IRQ_INFO_EVENTFD | VFIO_IRQ_INFO_NORESIZE : 0;
        i->count = i->index == VFIO_PCI_MSIX_IRQ_INDEX ? (uint32_t) vectors : 0;
        trace("ioctl device VFIO_DEVICE_GET_IRQ_INFO %u -> count %u flags 0x%x", i->index, i->count, i->flags);
        return 0;
    }
    case VFIO_DEVICE_SET_IRQS: {
        struct vfio_irq_set *s = arg;
        if (s->argsz < sizeof *s || s->index != VFIO_PCI_MSIX_IRQ_INDEX) return fail(EINVAL);
        if (!(s->flags & VFIO_IRQ_SET_ACTION_TRIGGER)) return fail(EINVAL);
        pthread_mutex_lock(&lock);
        if ((s->flags & VFIO_IRQ_SET_DATA_NONE) && s->count == 0) {
            for (int v = 0; v < MAX_VECTORS; v++) msix_fds[v] = -1;
            pthread_mutex_unlock(&lock);
            trace("ioctl device VFIO_DEVICE_SET_IRQS MSI-X off");
            return 0;
        }
        if (!(s->flags & VFIO_IRQ_SET_DATA_EVENTFD) || s->start + (uint64_t) s->count > (uint64_t) vectors
                || s->argsz < sizeof *s + 4ULL * s->count) {
            pthread_mutex_unlock(&lock);
            return fail(EINVAL);
        }
        const int32_t *fds = (const int32_t *) s->data;
        for (uint32_t i = 0; i < s->count; i++) msix_fds[s->start + i] = fds[i];
        pthread_mutex_unlock(&lock);
        trace("ioctl device VFIO_DEVICE_SET_IRQS MSI-X start %u count %u", s->start, s->count);
        return 0;
    }
    case VFIO_DEVICE_RESET:
        trace("ioctl device VFIO_DEVICE_RESET");
        return 0;
    }
    trace("ioctl device 0x%lx -> ENOTTY", req);
    return fail(ENOTTY);
}

int ioctl(int fd, unsigned long req, ...) {
    va_list ap;
    va_start(ap, req);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    switch (kind_of(fd)) {
    case K_CONTAINER: return container_ioctl(fd, req, arg);
    case K_GROUP: return group_ioctl(fd, req, arg);
    case K_DEVICE: return device_ioctl(fd, req, arg);
    default:
        resolve_ioctl();
        return real_ioctl(fd, req, arg);
    }
}

/* ------------------------------------------------------------------ BAR 0 and config space */

static void *do_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off, int use64) {
    if (kind_of(fd) == K_DEVICE) {
        uint64_t region = (uint64_t) off >> REGION_SHIFT, in = (uint64_t) off & REGION_MASK;
        trace("mmap device region %llu offset 0x%llx length 0x%zx", (unsigned long long) region, (unsigned long long) in, len);
        if (region != VFIO_PCI_BAR0_REGION_INDEX || in + len > bar_size) { errno = EINVAL; return MAP_FAILED; }
        resolve_mmap();
        return real_mmap(addr, len, prot, flags, bar_fd, (off_t) in);
    }
    resolve_mmap(); resolve_mmap64();
    return use64 ? real_mmap64(addr, len, prot, flags, fd, off) : real_mmap(addr, len, prot, flags, fd, off);
}
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) { return do_mmap(addr, len, prot, flags, fd, off, 0); }
void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off) { return do_mmap(addr, len, prot, flags, fd, off, 1); }

static ssize_t device_rw(void *buf, size_t n, off_t off, int write) {
    uint64_t region = (uint64_t) off >> REGION_SHIFT, in = (uint64_t) off & REGION_MASK;
    unsigned char *base;
    uint64_t size;
    if (region == VFIO_PCI_CONFIG_REGION_INDEX) { base = config; size = CONFIG_SIZE; }
    else if (region == VFIO_PCI_BAR0_REGION_INDEX) { base = bar; size = bar_size; }
    else { errno = EINVAL; return -1; }
    if (in >= size) return 0;
    if (n > size - in) n = size - in;
    if (write) {
        if (region == VFIO_PCI_CONFIG_REGION_INDEX && in < 4) n = 0; /* ids are read-only */
        else memcpy(base + in, buf, n);
    } else {
        memcpy(buf, base + in, n);
    }
    trace("%s device region %llu offset 0x%llx length %zu", write ? "pwrite" : "pread", (unsigned long long) region, (unsigned long long) in, n);
    return write && region == VFIO_PCI_CONFIG_REGION_INDEX && in < 4 ? (ssize_t) 0 : (ssize_t) n;
}
ssize_t pread(int fd, void *buf, size_t n, off_t off) {
    if (kind_of(fd) == K_DEVICE) return device_rw(buf, n, off, 0);
    resolve_pread();
    return real_pread(fd, buf, n, off);
}
ssize_t pread64(int fd, void *buf, size_t n, off64_t off) {
    if (kind_of(fd) == K_DEVICE) return device_rw(buf, n, off, 0);
    resolve_pread64();
    return real_pread64(fd, buf, n, off);
}
/* _FORTIFY_SOURCE builds (rdma-core's) call these for a buffer of known size. */
ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen) {
    if (n > buflen) abort();
    return pread(fd, buf, n, off);
}
ssize_t __pread64_chk(int fd, void *buf, size_t n, off64_t off, size_t buflen) {
    if (n > buflen) abort();
    return pread64(fd, buf, n, off);
}
ssize_t pwrite(int fd, const void *buf, size_t n, off_t off) {
    if (kind_of(fd) == K_DEVICE) return device_rw((void *) buf, n, off, 1);
    resolve_pwrite();
    return real_pwrite(fd, buf, n, off);
}
ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off) {
    if (kind_of(fd) == K_DEVICE) return device_rw((void *) buf, n, off, 1);
    resolve_pwrite64();
    return real_pwrite64(fd, buf, n, off);
}
